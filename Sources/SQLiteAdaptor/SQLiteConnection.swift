import CSQLite
import D2SModel
import EnvKeys
import Foundation

/// `SQLITE_TRANSIENT`, which Swift does not import (a macro with a cast).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection: owns the handle, caches prepared statements (reset after each use),
/// and turns SQLite errors into ``DatabaseError``s with SQLite's message.
final class SQLiteConnection: InterruptibleConnection, @unchecked Sendable {
  let handle: OpaquePointer
  let path: String
  private var statements: [String: OpaquePointer] = [:]
  let lock = NSRecursiveLock()
  private(set) var statementCount = 0
  /// The calls of `d2s_tally()` since the last reset: the rows a tallying statement sorted.
  var tallied = 0

  /// Whether to stop the running statement: the REPL's Ctrl-C (tests set it).
  var isInterrupted: @Sendable () -> Bool = { Interruption.isRequested }

  /// How long a statement waits for another connection's lock before failing.
  static let busyTimeoutMilliseconds: Int32 = 5_000

  /// Opens `path` (which must exist), or `:memory:`; foreign keys on, busy timeout 5 s.
  /// `vfs` names a registered SQLite VFS (nil: the default).
  init(path: String, readOnly: Bool = false, vfs: String? = nil) throws {
    // access(2), not FileManager: its shared instance is made on first use, at every start.
    if path != ":memory:" && access(path, F_OK) != 0 {
      throw DatabaseError(.connection, "no database file at \(path)")
    }
    if let vfs, sqlite3_vfs_find(vfs) == nil {
      throw DatabaseError(.connection, "cannot open \(path): no SQLite VFS named '\(vfs)'")
    }
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &db, flags, vfs)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw DatabaseError(.connection, "cannot open \(path): \(message)")
    }
    self.handle = db
    self.path = path
    sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
    sqlite3_extended_result_codes(db, 1)
    // Ctrl-C stops a long statement too, not only between rows: SQLite asks every 1,000
    // virtual-machine steps and ends the statement with SQLITE_INTERRUPT.
    sqlite3_progress_handler(
      db, 1_000,
      { context in
        guard let context else { return 0 }
        return Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().isInterrupted()
          ? 1 : 0
      }, Unmanaged.passUnretained(self).toOpaque())
    try executeScript("PRAGMA foreign_keys = ON")
    try defineTally()
    try defineFold()
  }

  /// Defines `d2s_tally()`: NULL, counting its calls in ``tallied``. Direct only: a view or
  /// trigger of the database cannot call it.
  private func defineTally() throws {
    let status = sqlite3_create_function_v2(
      handle, "d2s_tally", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY,
      Unmanaged.passUnretained(self).toOpaque(),
      { context, _, _ in
        guard let data = sqlite3_user_data(context) else { return }
        Unmanaged<SQLiteConnection>.fromOpaque(data).takeUnretainedValue().tallied += 1
        sqlite3_result_null(context)
      }, nil, nil, nil)
    guard status == SQLITE_OK else { throw error(status, sql: nil) }
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  func error(_ status: Int32, sql: String?) -> DatabaseError {
    let message = String(cString: sqlite3_errmsg(handle))
    let code: DatabaseError.Code
    switch status {
    case SQLITE_INTERRUPT: return DatabaseError(.interrupted, "interrupted", sql: sql)
    case 1299: code = .notNull  // SQLITE_CONSTRAINT_NOTNULL
    case 787: code = .foreignKey  // SQLITE_CONSTRAINT_FOREIGNKEY
    case 2067, 1555: code = .unique  // SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY
    case 275: code = .check  // SQLITE_CONSTRAINT_CHECK
    default:
      switch status & 0xff {
      case SQLITE_CONSTRAINT: code = .check
      case SQLITE_BUSY, SQLITE_LOCKED:
        let seconds = Self.busyTimeoutMilliseconds / 1_000
        return DatabaseError(
          .locked,
          "\(message): another connection is writing to it (waited \(seconds) s; try again)",
          sql: sql)
      case SQLITE_FULL: code = .full
      case SQLITE_IOERR, SQLITE_CANTOPEN: code = .io
      case SQLITE_READONLY: code = .readOnly
      // A statement too deep or too large for SQLite's parser or limits (a long generated
      // path): the request asked for more than the database can do. (Each status its own
      // `where`: one after a list of patterns holds for the last of them only.)
      case SQLITE_ERROR where Self.isTooComplex(message),
        SQLITE_TOOBIG where Self.isTooComplex(message),
        SQLITE_NOMEM where Self.isTooComplex(message):
        code = .unsupported
      default: code = .other
      }
    }
    return DatabaseError(code, message, sql: sql)
  }

  /// Whether SQLite's `message` says a statement is beyond its parser or its limits.
  static func isTooComplex(_ message: String) -> Bool {
    tooComplexMessages.contains { message.contains($0) }
  }

  /// SQLite's words for a statement beyond its parser's or its limits.
  static let tooComplexMessages = [
    "parser stack overflow", "Expression tree is too large", "too many FROM clause terms",
    "too many terms in compound SELECT", "at most 64 tables in a join", "too many columns",
    "string or blob too big", "too many SQL variables",
  ]

  /// Runs SQL text with no parameters (one or more statements).
  func executeScript(_ sql: String) throws {
    lock.lock()
    defer { lock.unlock() }
    var timer = SQLTimer()
    defer { timer.finish(SQLStatement(raw: sql)) }
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard status == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      var failure = error(status, sql: nil)
      if failure.code != .locked { failure.message = text }
      throw failure
    }
  }

  /// Runs `sql`, a statement of SQLite's own with no rows (`BEGIN`, `COMMIT`), prepared once
  /// and kept; neither logged nor counted: the bracket of a read transaction, not one of the
  /// statements it holds.
  func control(_ sql: String) throws {
    lock.lock()
    defer { lock.unlock() }
    let prepared = try preparing(sql)
    defer { sqlite3_reset(prepared) }
    let status = sqlite3_step(prepared)
    guard status == SQLITE_DONE else { throw error(status, sql: sql) }
  }

  /// The details of `statement`'s query plan (`EXPLAIN QUERY PLAN`, its values bound), one per
  /// step; neither logged nor counted as a statement.
  func queryPlan(_ statement: SQLStatement) throws -> [String] {
    lock.lock()
    defer { lock.unlock() }
    let sql = "EXPLAIN QUERY PLAN " + statement.sql
    let prepared = try preparing(sql)
    defer {
      sqlite3_reset(prepared)
      sqlite3_clear_bindings(prepared)
    }
    try bind(statement.bindings, to: prepared, sql: sql)
    var details: [String] = []
    while true {
      let status = sqlite3_step(prepared)
      if status == SQLITE_DONE { return details }
      guard status == SQLITE_ROW else { throw error(status, sql: sql) }
      details.append(sqlite3_column_text(prepared, 3).map { String(cString: $0) } ?? "")
    }
  }

  /// `sql` prepared, or the statement prepared for it before (kept until the connection
  /// closes). Under the lock.
  private func preparing(_ sql: String) throws -> OpaquePointer {
    if let cached = statements[sql] { return cached }
    var raw: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
    guard status == SQLITE_OK, let raw else { throw error(status, sql: sql) }
    statements[sql] = raw
    return raw
  }

  /// Binds `values` to `prepared`'s parameters, in order.
  private func bind(_ values: [DatabaseValue], to prepared: OpaquePointer, sql: String) throws {
    for (offset, value) in values.enumerated() {
      let status = bind(value, at: Int32(offset + 1), in: prepared)
      guard status == SQLITE_OK else { throw error(status, sql: sql) }
    }
  }

  /// Whether no transaction is open (SQLite's autocommit mode).
  var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// Prepares (or reuses) `statement`, binds its values, and steps through its rows. Its time
  /// for ``SQLTrace`` is that of preparing, binding and stepping, not of `row`.
  func run(_ statement: SQLStatement, row: (OpaquePointer) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    logStatement(statement)
    statementCount += 1
    var timer = SQLTimer()
    defer { timer.finish(statement) }
    let prepared = try preparing(statement.sql)
    defer {
      sqlite3_reset(prepared)
      sqlite3_clear_bindings(prepared)
    }
    try bind(statement.bindings, to: prepared, sql: statement.sql)
    while true {
      let status = sqlite3_step(prepared)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw error(status, sql: statement.sql) }
      timer.pause()
      try row(prepared)
      timer.resume()
    }
  }

  var changes: Int { Int(sqlite3_changes(handle)) }

  /// Why this connection cannot write although it was opened for writing: SQLite fell back to
  /// reading a file this user cannot write, or the folder (where SQLite puts its journal)
  /// is not writable. Nil when it can write.
  func unwritableReason() -> String? {
    guard path != ":memory:" else { return nil }
    if sqlite3_db_readonly(handle, "main") == 1 { return "\(path) is not writable by this user" }
    let folder = SQLiteLocation.folder(of: path)
    if access(folder, W_OK) != 0 {
      return "the folder of \(path) is not writable by this user (SQLite keeps its journal there)"
    }
    return nil
  }

  private func bind(_ value: DatabaseValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
    switch value {
    case .null: return sqlite3_bind_null(statement, index)
    case .int(let i): return sqlite3_bind_int64(statement, index, Int64(i))
    case .double(let d): return sqlite3_bind_double(statement, index, d)
    case .decimal(let d): return bindText(d.description, at: index, in: statement)
    case .string(let s): return bindText(s, at: index, in: statement)
    case .bool(let b): return sqlite3_bind_int64(statement, index, b ? 1 : 0)
    case .date(let d):
      return bindText(DatabaseValue.formatDate(d, kind: .dateTime), at: index, in: statement)
    case .data(let data):
      if data.isEmpty { return sqlite3_bind_zeroblob(statement, index, 0) }
      return data.withUnsafeBytes {
        sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient)
      }
    case .array(let items):
      let text = items.map { $0 ?? "" }.joined(separator: ",")
      return bindText(text, at: index, in: statement)
    case .verbatim(let s): return bindText(s, at: index, in: statement)
    // Text that is not UTF-8: the same bytes, as text.
    case .textBytes(let bytes):
      return bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else {
          return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
        }
        return sqlite3_bind_text(statement, index, base, Int32(raw.count), sqliteTransient)
      }
    // No SQLite value is a list (the SQL builder expands `in` lists into one value each).
    case .list: return SQLITE_MISMATCH
    }
  }

  /// Binds `text` by its UTF-8 byte count, never up to a first NUL: a NUL inside a value is
  /// stored, and read back, whole.
  private func bindText(_ text: String, at index: Int32, in statement: OpaquePointer) -> Int32 {
    var text = text
    return text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else {
        return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text(statement, index, $0, Int32(bytes.count), sqliteTransient)
      }
    }
  }
}
