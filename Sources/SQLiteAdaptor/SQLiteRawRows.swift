import CSQLite
import D2SModel
import EnvKeys

/// Rows stepped on one thread and copied out raw (storage class, number, bytes), to be decoded
/// on another: the reading thread then does little more than SQLite's own stepping, and the
/// strings and dates are made (and freed) on the thread that shows them.
package struct SQLiteRawRows: Sendable {
  /// One value as SQLite stored it.
  struct Slot {
    var storage: Int32
    /// The length of the value's bytes in ``SQLiteRawRows/bytes``; -1 for none.
    var count: Int32 = -1
    /// An integer, or a double's bit pattern.
    var number: Int64 = 0
    var start = 0
  }

  /// Columns per row.
  let width: Int
  private(set) var slots: [Slot] = []
  private(set) var bytes: [UInt8] = []

  /// Empty rows of `width` columns, with room for `rows` of them.
  init(width: Int, rows: Int) {
    self.width = max(width, 1)
    slots.reserveCapacity(self.width * rows)
    bytes.reserveCapacity(64 * rows)
  }

  /// How many rows are held.
  var count: Int { slots.count / width }

  /// Copies the current row of `statement`. `textOfNumbers` says, by column, whether to keep
  /// SQLite's text form of a number too (for the types that decode numbers from their text).
  mutating func append(row statement: OpaquePointer, textOfNumbers: [Bool]) {
    for index in 0..<width {
      let column = Int32(index)
      var slot = Slot(storage: sqlite3_column_type(statement, column))
      switch slot.storage {
      case SQLITE_INTEGER:
        slot.number = sqlite3_column_int64(statement, column)
        if index < textOfNumbers.count, textOfNumbers[index] { copyText(statement, column, &slot) }
      case SQLITE_FLOAT:
        slot.number = Int64(bitPattern: sqlite3_column_double(statement, column).bitPattern)
        if index < textOfNumbers.count, textOfNumbers[index] { copyText(statement, column, &slot) }
      case SQLITE_TEXT:
        copyText(statement, column, &slot)
      case SQLITE_BLOB:
        let pointer = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        slot.start = bytes.count
        slot.count = Int32(count)
        if let pointer, count > 0 {
          bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: count))
        }
      default:
        break
      }
      slots.append(slot)
    }
  }

  private mutating func copyText(_ statement: OpaquePointer, _ column: Int32, _ slot: inout Slot) {
    slot.start = bytes.count
    guard let pointer = sqlite3_column_text(statement, column) else {
      slot.count = 0
      return
    }
    let count = Int(sqlite3_column_bytes(statement, column))
    slot.count = Int32(count)
    bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
  }

  /// Decodes each row as `columns` say, and hands its values to `row`, in order.
  func decode(columns: [Attribute?], row: ([DatabaseValue]) throws -> Void) throws {
    var values: [DatabaseValue] = []
    values.reserveCapacity(width)
    let types = SQLiteTypes.ColumnType.of(columns, count: width)
    var memos = Array(repeating: SQLiteTypes.DecimalMemo(), count: width)
    try slots.withUnsafeBufferPointer { slots in
      try bytes.withUnsafeBufferPointer { bytes in
        var first = 0
        while first + width <= slots.count {
          let source = RawColumns(slots: slots, first: first, bytes: bytes)
          // The same array for every row, unless `row` kept it (then it is copied).
          values.removeAll(keepingCapacity: true)
          for index in 0..<width {
            values.append(
              SQLiteTypes.decode(source, Int32(index), as: types[index], memo: &memos[index]))
          }
          try row(values)
          first += width
        }
      }
    }
  }
}

/// One row of ``SQLiteRawRows``, read as a statement's row would be.
private struct RawColumns: SQLiteColumns {
  let slots: UnsafeBufferPointer<SQLiteRawRows.Slot>
  let first: Int
  let bytes: UnsafeBufferPointer<UInt8>

  func storage(_ index: Int32) -> Int32 { slots[first + Int(index)].storage }
  func int64(_ index: Int32) -> Int64 {
    let slot = slots[first + Int(index)]
    guard slot.storage == SQLITE_FLOAT else { return slot.number }
    // As SQLite converts: toward zero, to the nearest integer when out of range, NaN as 0.
    let value = Double(bitPattern: UInt64(bitPattern: slot.number))
    if value.isNaN { return 0 }
    if value >= 9_223_372_036_854_775_808.0 { return .max }  // 2^63, exactly
    if value <= -9_223_372_036_854_775_808 { return .min }
    return Int64(value)
  }
  func double(_ index: Int32) -> Double {
    let slot = slots[first + Int(index)]
    return slot.storage == SQLITE_FLOAT
      ? Double(bitPattern: UInt64(bitPattern: slot.number)) : Double(slot.number)
  }

  func withText<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let slot = slots[first + Int(index)]
    guard slot.count < 0 else {
      return body(UnsafeBufferPointer(rebasing: bytes[slot.start..<slot.start + Int(slot.count)]))
    }
    if slot.storage == SQLITE_NULL { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    // A number whose text was not kept (no decoding asks for it).
    var text = slot.storage == SQLITE_FLOAT ? String(double(index)) : String(slot.number)
    return text.withUTF8 { body($0) }
  }

  func withBlob<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    withText(index) { body(UnsafeRawBufferPointer($0)) }
  }
}

extension SQLiteAdaptor: SplitRowReading {
  package func readRaw(
    _ statement: SQLStatement, columns: [Attribute?], batchSize: Int,
    eachRow: () throws -> Void, emit: (SQLiteRawRows) throws -> Void
  ) throws {
    // The types that decode a number from SQLite's text form of it.
    let textOfNumbers = columns.map { attribute in
      guard let attribute, !attribute.isUntyped else { return false }
      switch attribute.valueType {
      case .array: return true
      default: return false
      }
    }
    var rows: SQLiteRawRows?
    try connection.run(statement) { prepared in
      try eachRow()
      if rows == nil {
        rows = SQLiteRawRows(width: Int(sqlite3_column_count(prepared)), rows: batchSize)
      }
      rows?.append(row: prepared, textOfNumbers: textOfNumbers)
      // The count read in place: binding the batch to test it would retain its buffers per row.
      if (rows?.count ?? 0) >= batchSize, let full = rows {
        try emit(full)
        rows = SQLiteRawRows(width: full.width, rows: batchSize)
      }
    }
    if let rows, rows.count > 0 { try emit(rows) }
  }

  package func decode(
    _ rows: SQLiteRawRows, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void
  ) throws {
    try rows.decode(columns: columns, row: row)
  }
}
