import CSQLite
import D2SModel
import EnvKeys
import Foundation

/// The SQLite adaptor over libsqlite3.
///
/// ```swift
/// let database = try Database(adaptor: SQLiteAdaptor(path: "sakila.db"))
/// ```
public final class SQLiteAdaptor: DatabaseAdaptor, @unchecked Sendable {
  let connection: SQLiteConnection
  /// Where it was opened, and how.
  let location: SQLiteLocation
  private var transactionDepth = 0
  /// Whether a write transaction is open on this connection (call with its lock held).
  var isWriting: Bool { transactionDepth > 0 }
  /// Whether ``reading(_:)`` is running (its transaction open until a write ends it).
  private var isReading = false
  /// How many read transactions ``reading(_:)`` has begun.
  private var readsBegun = 0
  /// Counts and estimates kept while the file stays the same (SQLiteAdaptor+KeptFigures).
  var kept = KeptFigures()

  /// The database's name: the file's name without its extension (`sakila`), or `memory`.
  public let databaseName: String
  /// The file path (or `:memory:`).
  public var path: String { connection.path }

  /// Opens an existing SQLite file, or `:memory:`. `sqlite:PATH` is accepted too, with the
  /// parameters `?mode=ro` (read-only) and `vfs=NAME` (an SQLite VFS registered by name).
  /// With `readOnly` nothing can be written, whatever the URL says.
  public convenience init(path: String, readOnly: Bool = false) throws {
    try self.init(location: try SQLiteLocation(path, readOnly: readOnly))
  }

  /// Opens the database at `location`.
  init(location: SQLiteLocation) throws {
    self.location = location
    connection = try SQLiteConnection(
      path: location.path, readOnly: location.readOnly, vfs: location.vfs)
    databaseName =
      location.path == ":memory:"
      ? "memory" : SQLiteLocation.stem(of: location.path)
    readOnlyReason = location.readOnlyReason ?? connection.unwritableReason()
  }

  /// Why nothing can be written: opened read-only, or a file or folder this user cannot write.
  public let readOnlyReason: String?

  /// Runs SQL text (several statements allowed, no parameters): for loading schemas and data.
  public func executeScript(_ sql: String) throws {
    try connection.executeScript(sql)
  }

  /// How many statements this connection has run (not counting a read transaction's bracket).
  public var statementCount: Int { connection.lock.withLock { connection.statementCount } }

  /// How many read transactions ``reading(_:)`` has begun on this connection (for tests that
  /// check that a page's statements share one).
  public var readTransactionCount: Int { connection.lock.withLock { readsBegun } }

  /// `PRAGMA data_version` (which changes when another connection commits; the statement
  /// starts a read transaction, so the file's change counter is read anew) and the rows this
  /// connection changed (`sqlite3_total_changes64`); nil inside a transaction.
  public func contentVersion() throws -> ContentVersion? {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    guard transactionDepth == 0 else { return nil }
    var commits: Int64?
    try connection.run(SQLStatement(raw: "PRAGMA data_version")) { prepared in
      commits = sqlite3_column_int64(prepared, 0)
    }
    guard let commits else { return nil }
    return ContentVersion(
      commits: commits, ownChanges: sqlite3_total_changes64(connection.handle))
  }

  /// How SQLite spells what the SQL serialiser needs.
  public var dialect: SQLDialect { Self.sqlDialect }

  /// SQLite's dialect, without an open database.
  public static let sqlDialect = SQLDialect(
    placeholder: { _ in "?" },
    nullSafeEqual: "IS",
    nullSafeNotEqual: "IS NOT",
    like: { lhs, placeholder, caseInsensitive in
      // Every letter folded, as PostgreSQL's ILIKE and the rules' `ilike` fold them (SQLite's
      // own `lower()` folds ASCII letters only): `d2s_lower`, defined on each connection.
      caseInsensitive
        ? "d2s_lower(\(lhs)) GLOB d2s_lower(\(placeholder))" : "\(lhs) GLOB \(placeholder)"
    },
    translateLike: SQLiteAdaptor.globPattern,
    castToText: { "CAST(\($0) AS TEXT)" },
    noLimit: .int(-1), beginTransaction: "BEGIN IMMEDIATE", gathersToManyKeys: true)

  /// A D2S pattern as a GLOB pattern: `*` and `?` as they are, literal `*`, `?` and `[` in
  /// brackets.
  static func globPattern(_ pattern: String) -> String {
    var out = ""
    var escaped = false
    for c in pattern {
      if escaped {
        // `\*`, `\?` and `\\` are the characters themselves (GLOB has no escape: a set, or
        // the backslash alone); another backslash is itself.
        switch c {
        case "*", "?": out += "[\(c)]"
        case "\\": out += "\\"
        case "[": out += "\\[[]"
        default: out += "\\\(c)"
        }
        escaped = false
        continue
      }
      switch c {
      case "\\": escaped = true
      case "[": out += "[[]"
      default: out.append(c)
      }
    }
    if escaped { out += "\\" }
    return out
  }

  /// Runs `statement` and hands each row to `row`, its values decoded as `columns` say (by
  /// storage class past them).
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void
  ) throws {
    var types: [SQLiteTypes.ColumnType]?
    // The same array for every row, unless `row` kept it (then it is copied). (reserveCapacity,
    // not Array(unsafeUninitializedCapacity:), whose unspecialized path looks up the array
    // storage's generic metadata for every row.)
    var values: [DatabaseValue] = []
    var memos: [SQLiteTypes.DecimalMemo] = []
    try connection.run(statement) { prepared in
      // The columns' types and the array's room, once, at the first row.
      let columnTypes: [SQLiteTypes.ColumnType]
      if let types {
        columnTypes = types
      } else {
        columnTypes = SQLiteTypes.ColumnType.of(
          columns, count: Int(sqlite3_column_count(prepared)))
        types = columnTypes
        values.reserveCapacity(columnTypes.count)
        memos = Array(repeating: SQLiteTypes.DecimalMemo(), count: columnTypes.count)
      }
      // Each row's values written over the last's: emptying the array and appending again
      // cost about 270 instructions a row of eight values.
      if values.count == columnTypes.count {
        // Through the buffer: no uniqueness check a value (the array is copied first, once,
        // when `row` kept it).
        values.withUnsafeMutableBufferPointer { values in
          memos.withUnsafeMutableBufferPointer { memos in
            for index in columnTypes.indices {
              values[index] = SQLiteTypes.decode(
                ColumnValue(prepared, Int32(index)), 0, as: columnTypes[index],
                memo: &memos[index])
            }
          }
        }
      } else {
        for index in columnTypes.indices {
          values.append(
            SQLiteTypes.decode(
              ColumnValue(prepared, Int32(index)), 0, as: columnTypes[index],
              memo: &memos[index]))
        }
      }
      try row(values)
    }
  }

  /// Runs `statement`; the number of rows it changed.
  @discardableResult
  public func execute(_ statement: SQLStatement) throws -> Int {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    try connection.run(statement) { _ in }
    return connection.changes
  }

  /// Inserts a row of `entity` and returns its primary key values (`RETURNING`).
  public func insert(into entity: Entity, values: [(Attribute, DatabaseValue)]) throws
    -> [DatabaseValue]
  {
    let keys = entity.primaryKeyAttributes
    var key: [DatabaseValue] = []
    try query(
      dialect.statement(SQLInsert(into: entity, values: values, returning: keys)), columns: keys
    ) { row in
      key = row
    }
    return key
  }

  /// Runs `body` in a transaction (`BEGIN IMMEDIATE`, a savepoint when nested): committed when
  /// it returns, rolled back when it throws. A read-only database refuses.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    if let readOnlyReason {
      throw DatabaseError(.readOnly, "\(databaseName) is read-only (\(readOnlyReason))")
    }
    connection.lock.lock()
    defer { connection.lock.unlock() }
    // A write inside a read: the read's transaction ends first, and the write has its own.
    if isReading, transactionDepth == 0 { try endRead() }
    let depth = transactionDepth
    try connection.executeScript(dialect.text(.begin, depth: depth))
    transactionDepth += 1
    defer { transactionDepth = depth }
    do {
      let result = try body()
      // Once the work is done, a Ctrl-C must not make the outcome of the commit unclear.
      try connection.withoutInterruption {
        try connection.executeScript(dialect.text(.commit, depth: depth))
      }
      return result
    } catch {
      try? connection.withoutInterruption {  // Ctrl-C may have caused the failure: undo it anyway
        try connection.executeScript(dialect.text(.rollback, depth: depth))
      }
      throw error
    }
  }

  /// `body`'s statements in one read transaction (`BEGIN DEFERRED`): they read one snapshot,
  /// and the file is locked and its change counter read once, not once per statement (eight
  /// system calls each). Inside a transaction, `body` alone; a write inside ends the read.
  public func reading<T>(_ body: () throws -> T) throws -> T {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    guard transactionDepth == 0, !isReading, connection.isAutocommit else { return try body() }
    try connection.control("BEGIN DEFERRED")
    isReading = true
    readsBegun += 1
    defer {
      // Ending a read gives its lock back; there is nothing to lose, so a failure to end it
      // changes nothing of what `body` gave (the next statement would report a broken
      // connection).
      try? endRead()
      isReading = false
    }
    return try body()
  }

  /// Ends the read transaction of ``reading(_:)``, when one is open.
  private func endRead() throws {
    guard !connection.isAutocommit else { return }
    try connection.withoutInterruption { try connection.control("COMMIT") }
  }

  /// `value` as the column stores it (dates as its text form, decimals as numbers, booleans
  /// as 0/1).
  public func encode(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue {
    SQLiteTypes.encode(value, for: attribute)
  }

  /// PostgreSQL's special values (`infinity`, a BC date, `NaN`; ``DatabaseValue/special(_:for:)``),
  /// which an SQLite column would hold as text: refused by their field.
  public func refusal(of value: DatabaseValue, for attribute: Attribute) -> String? {
    guard case .verbatim(let text) = value, DatabaseValue.special(text, for: attribute) != nil
    else { return nil }
    let kind = attribute.valueType == .date ? "date" : "number"
    return "\(attribute.name): '\(text)' is PostgreSQL's; SQLite has no such \(kind)"
  }
}
