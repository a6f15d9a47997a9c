import CSQLite
import D2SModel

/// The columns of one row, as SQLite stores them: what ``SQLiteTypes`` decodes values from.
/// Either one column of a statement's current row (``ColumnValue``), or a row copied out of it
/// to be decoded elsewhere.
protocol SQLiteColumns {
  /// The storage class (`SQLITE_NULL`, `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`,
  /// `SQLITE_BLOB`).
  func storage(_ index: Int32) -> Int32
  func int64(_ index: Int32) -> Int64
  func double(_ index: Int32) -> Double
  /// The value as UTF-8 text (SQLite's text form of a number), empty for none.
  func withText<R>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
  /// The value's bytes, empty for none.
  func withBlob<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R
}

/// One column of a stepped statement's current row, read through its value
/// (`sqlite3_column_value`): the column is looked up once for its storage class and its
/// content, where each `sqlite3_column_*` call looks it up again and settles the connection's
/// error state (about 70 instructions a call, two or three a value). The index is the
/// column's own: any asked for reads the one column.
///
/// The value is SQLite's unprotected one, valid until the statement steps again; it is read
/// on the connection's thread only, as every statement of a connection is.
struct ColumnValue: SQLiteColumns {
  /// SQLite's value (never nil: SQLite answers a column past the row with a NULL value; nil
  /// is read as NULL all the same).
  let value: OpaquePointer?

  /// Column `index` of `statement`'s current row.
  init(_ statement: OpaquePointer, _ index: Int32) {
    value = sqlite3_column_value(statement, index)
  }

  func storage(_: Int32) -> Int32 {
    guard let value else { return SQLITE_NULL }
    return sqlite3_value_type(value)
  }

  func int64(_: Int32) -> Int64 {
    guard let value else { return 0 }
    return sqlite3_value_int64(value)
  }

  func double(_: Int32) -> Double {
    guard let value else { return 0 }
    return sqlite3_value_double(value)
  }

  func withText<R>(_: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // The pointer first, then its length (SQLite's documented order).
    guard let value, let pointer = sqlite3_value_text(value) else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    let count = Int(sqlite3_value_bytes(value))
    return body(UnsafeBufferPointer(start: pointer, count: count))
  }

  func withBlob<R>(_: Int32, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    guard let value else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    let pointer = sqlite3_value_blob(value)
    let count = Int(sqlite3_value_bytes(value))
    guard let pointer, count > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return body(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}
