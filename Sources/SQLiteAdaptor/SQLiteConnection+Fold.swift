import CSQLite
import EnvKeys

/// `d2s_lower(x)`: `x`'s text with every letter in lower case, as ``EnvKeys/CaseFold`` folds
/// it (SQLite's own `lower()` folds ASCII letters only, so `ilike 'émile'` missed
/// `ÉMILE` on SQLite while PostgreSQL and the rules' in-memory `ilike` found it). Text that is
/// not UTF-8 has its ASCII letters folded, its other bytes kept; NULL is NULL. Defined on every
/// connection, for its own statements only (a view or trigger cannot call it).
extension SQLiteConnection {
  func defineFold() throws {
    let status = sqlite3_create_function_v2(
      handle, Self.foldFunction, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY | SQLITE_DETERMINISTIC, nil,
      { context, count, arguments in
        guard let context, count == 1, let argument = arguments?[0] else { return }
        guard sqlite3_value_type(argument) != SQLITE_NULL else {
          return sqlite3_result_null(context)
        }
        // A value that is not NULL has a text unless SQLite ran out of memory making it: the
        // statement then fails, rather than the row silently not matching.
        guard let text = sqlite3_value_text(argument) else {
          return sqlite3_result_error_nomem(context)
        }
        let bytes = UnsafeBufferPointer(
          start: text, count: Int(sqlite3_value_bytes(argument)))
        SQLiteConnection.fold(bytes) { folded in
          sqlite3_result_text64(
            context, folded.baseAddress, sqlite3_uint64(folded.count), sqliteTransient,
            UInt8(SQLITE_UTF8))
        }
      }, nil, nil, nil)
    guard status == SQLITE_OK else { throw error(status, sql: nil) }
  }

  /// The name statements call it by.
  static let foldFunction = "d2s_lower"

  /// `body` of `bytes` folded: ASCII letters in place in a copy (most text), anything else
  /// through ``EnvKeys/CaseFold`` when the bytes are UTF-8.
  static func fold(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<CChar>) -> Void
  ) {
    guard bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) == nil
    else {
      var lowered = CaseFold.lowercased(String(decoding: bytes, as: UTF8.self))
      lowered.withUTF8 { utf8 in
        utf8.withMemoryRebound(to: CChar.self) { body($0) }
      }
      return
    }
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(bytes.count, 1)) { buffer in
      for (index, byte) in bytes.enumerated() {
        let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        buffer[index] = CChar(bitPattern: folded)
      }
      body(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
    }
  }
}
