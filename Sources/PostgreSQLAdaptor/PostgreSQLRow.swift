import CLibPQ

/// A libpq result, cleared once no row of it is read any more.
final class PostgreSQLResult {
  let handle: OpaquePointer

  /// Owns `handle` (`PQclear` when this goes).
  init(_ handle: OpaquePointer) { self.handle = handle }

  deinit { PQclear(handle) }
}

/// One row of a query's result as libpq holds it, its values read straight from the result
/// (``withValue(_:_:)``: an integer is read from its bytes, with no `String` made first), or
/// the row's text values when it was read into memory
/// (a row of a stream parked in single-row mode, which keeps no result per row).
struct PostgreSQLRow {
  /// The result the row is in (nil for a row of text values): kept while the row is.
  private let owner: PostgreSQLResult?
  /// `owner`'s handle, read without retaining it for every value.
  private let handle: OpaquePointer?
  private let row: Int32
  private let texts: [String?]
  /// How many values the row has.
  let count: Int

  /// Row `row` of `result`, which has `columns` columns.
  init(_ result: PostgreSQLResult, row: Int32, columns: Int) {
    owner = result
    handle = result.handle
    self.row = row
    texts = []
    count = columns
  }

  /// A row of text values (nil for NULL).
  init(text: [String?]) {
    owner = nil
    handle = nil
    row = 0
    texts = text
    count = text.count
  }

  /// `body` of the value at `column`'s bytes (in the result, valid during the call; a row of
  /// text values hands its text's), or nil for NULL. Two libpq calls a value, its length and
  /// its place: only an empty value may be NULL, and only then is libpq asked.
  func withValue<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
    guard let handle else {
      guard var text = texts[column] else { return nil }
      return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
    // The row keeps its result, and so these bytes, while `body` reads them.
    return withExtendedLifetime(owner) {
      let place = Int32(column)
      let count = Int(PQgetlength(handle, row, place))
      if count == 0, PQgetisnull(handle, row, place) == 1 { return nil }
      return body(UnsafeRawBufferPointer(start: PQgetvalue(handle, row, place), count: count))
    }
  }

  /// The bytes of the value at `column` of `row` in result `handle`, valid while it is.
  static func bytes(in handle: OpaquePointer, row: Int32, column: Int32) -> UnsafeRawBufferPointer {
    // By its length, which libpq knows: no strlen over every value.
    UnsafeRawBufferPointer(
      start: PQgetvalue(handle, row, column), count: Int(PQgetlength(handle, row, column)))
  }

  /// The value at `column` as text, nil for NULL.
  func text(_ column: Int) -> String? {
    guard handle != nil else { return texts[column] }
    return withValue(column) { String(decoding: $0, as: UTF8.self) }
  }

  /// Every value as text (nil for NULL).
  var textValues: [String?] { (0..<count).map(text) }
}
