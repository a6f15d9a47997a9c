import CLibPQ

/// A libpq result, cleared once no row of it is read any more.
final class PostgreSQLResult {
  let handle: OpaquePointer

  /// Owns `handle` (`PQclear` when this goes).
  init(_ handle: OpaquePointer) { self.handle = handle }

  deinit { PQclear(handle) }
}

/// One row of a query's result as libpq holds it, its values read straight from the result
/// (no `String` made for a value whose type reads its bytes itself, see
/// ``PostgreSQLTypes/decode(_:_:as:)``), or the row's text values when it was read into memory
/// (a row of a stream parked in single-row mode, which keeps no result per row).
struct PostgreSQLRow {
  private enum Storage {
    case result(PostgreSQLResult, row: Int32)
    case text([String?])
  }

  private let storage: Storage
  /// How many values the row has.
  let count: Int

  /// Row `row` of `result`, which has `columns` columns.
  init(_ result: PostgreSQLResult, row: Int32, columns: Int) {
    storage = .result(result, row: row)
    count = columns
  }

  /// A row of text values (nil for NULL).
  init(text: [String?]) {
    storage = .text(text)
    count = text.count
  }

  /// Whether the value at `column` is NULL.
  func isNull(_ column: Int) -> Bool {
    switch storage {
    case .result(let result, let row): PQgetisnull(result.handle, row, Int32(column)) == 1
    case .text(let values): values[column] == nil
    }
  }

  /// What `body` makes of the bytes of the value at `column` (not NULL: see ``isNull(_:)``),
  /// valid only while it runs.
  func withBytes<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
    switch storage {
    case .result(let result, let row):
      // By its length, which libpq knows: no strlen over every value.
      return body(
        UnsafeRawBufferPointer(
          start: PQgetvalue(result.handle, row, Int32(column)),
          count: Int(PQgetlength(result.handle, row, Int32(column)))))
    case .text(let values):
      var text = values[column] ?? ""
      return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
  }

  /// The value at `column` as text, nil for NULL.
  func text(_ column: Int) -> String? {
    switch storage {
    case .result(let result, let row):
      guard PQgetisnull(result.handle, row, Int32(column)) == 0 else { return nil }
      return withBytes(column) { String(decoding: $0, as: UTF8.self) }
    case .text(let values): return values[column]
    }
  }

  /// Every value as text (nil for NULL).
  var texts: [String?] { (0..<count).map(text) }
}
