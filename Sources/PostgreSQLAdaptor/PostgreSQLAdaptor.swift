import CLibPQ
import D2SModel
import EnvKeys
import Foundation
import Synchronization

/// The PostgreSQL adaptor over libpq: text-format parameters sent untyped, sessions in
/// `DateStyle=ISO` and `TimeZone=UTC`.
///
/// ```swift
/// let database = try Database(adaptor: PostgreSQLAdaptor(url: "postgresql://me@localhost/sakila"))
/// ```
public final class PostgreSQLAdaptor: DatabaseAdaptor, @unchecked Sendable {
  let connection: PostgreSQLConnection
  private var transactionDepth = 0
  /// Row estimates read lately, by table (``estimatedRowCount(of:)``), with whether the
  /// table's count may be kept (see ``Estimate``).
  let estimates = Mutex<[String: Estimate]>([:])
  /// Whole-table counts, by count statement, with the snapshot they were made in (see
  /// ``query(_:columns:countingRowsOf:with:row:)``).
  let keptCounts = Mutex<[String: KeptCount]>([:])
  /// How many counts were answered from ``keptCounts`` (for tests).
  let keptCountAnswers = Mutex(0)
  /// A list page's rows, by statement, with the snapshot they were read in (see
  /// ``queryKeepingRows(_:columns:followedBy:row:)``).
  let keptRows = Mutex<[KeptRowsKey: KeptRows]>([:])
  /// How many pages' rows were answered from ``keptRows`` (for tests).
  let keptRowsAnswers = Mutex(0)
  /// Whether the last page asked found the server's snapshot moved since its rows were kept:
  /// the next sends its statements without asking first (``answerFromSnapshot(_:count:row:)``).
  let snapshotMoved = Mutex(false)
  /// How many pages were answered by asking for the snapshot alone (for tests).
  let snapshotAnswers = Mutex(0)

  /// The database's name.
  public let databaseName: String
  /// The URL or conninfo it connected with.
  public let url: String

  /// Why nothing can be written: opened read-only (then the session's transactions are
  /// read-only on the server too).
  public let readOnlyReason: String?

  /// Connects with a `postgresql://` / `postgres://` URL or a libpq `key=value` string;
  /// `readOnly` makes every transaction of the session read-only.
  public init(url: String, readOnly: Bool = false) throws {
    self.url = url
    connection = try PostgreSQLConnection(conninfo: url)
    databaseName = connection.databaseName
    readOnlyReason = readOnly ? "opened read-only" : nil
    if readOnly {
      connection.sessionSettings += "; SET default_transaction_read_only = on"
      try executeScript("SET default_transaction_read_only = on")
    }
  }

  /// How many statements this connection has run.
  public var statementCount: Int { connection.lock.withLock { connection.statementCount } }

  /// How many times two statements went in one round trip (a page's rows and its count).
  var pipelineCount: Int { connection.lock.withLock { connection.pipelineCount } }

  /// How PostgreSQL spells what the SQL serialiser needs.
  public var dialect: SQLDialect { Self.sqlDialect }

  /// PostgreSQL's dialect, without an open database.
  public static let sqlDialect = SQLDialect(
    placeholder: { "$\($0)" },
    nullSafeEqual: "IS NOT DISTINCT FROM",
    nullSafeNotEqual: "IS DISTINCT FROM",
    like: { lhs, placeholder, caseInsensitive in
      "\(lhs) \(caseInsensitive ? "ILIKE" : "LIKE") \(placeholder) ESCAPE '\\'"
    },
    translateLike: PostgreSQLAdaptor.likePattern,
    castToText: { "CAST(\($0) AS text)" },
    noLimit: .null, readsPositionsAsText: true, rowLock: " FOR UPDATE",
    writesLimitsAsNumbers: true)

  /// A D2S pattern as a LIKE pattern: `*` → `%`, `?` → `_`, and `%`, `_`, `\` escaped.
  static func likePattern(_ pattern: String) -> String {
    var out = ""
    var escaped = false
    for c in pattern {
      if escaped {
        // `\*`, `\?` and `\\` are the characters themselves; another backslash is itself.
        switch c {
        case "*", "?": out.append(c)
        case "\\": out += "\\\\"
        case "%", "_": out += "\\\\\\" + String(c)
        default: out += "\\\\" + String(c)
        }
        escaped = false
        continue
      }
      switch c {
      case "\\": escaped = true
      case "*": out += "%"
      case "?": out += "_"
      case "%", "_": out += "\\" + String(c)
      default: out.append(c)
      }
    }
    if escaped { out += "\\\\" }
    return out
  }

  /// Runs SQL text (several statements, no parameters).
  public func executeScript(_ sql: String) throws {
    // A script may analyze a table: its estimate is read anew (forgotten once the script
    // ran, so that no estimate read while it ran is kept). Transactions' own statements
    // come here too, and forget the estimates as well.
    defer { estimates.withLock { $0.removeAll() } }
    try reconnectOutsideTransactions()
    _ = try connection.run(SQLStatement(raw: sql), simple: true)
  }

  /// Between transactions, a lost connection (a server restart) is made again before the
  /// next statement; inside one, it is an error (the server has rolled the transaction back).
  private func reconnectOutsideTransactions() throws {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    if transactionDepth == 0 { try connection.reconnectIfLost() }
  }

  /// Runs a query, decoding each row for `columns`.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void
  ) throws {
    _ = try query(statement, columns: columns, following: nil, row: row)
  }

  /// Runs a query as ``query(_:columns:row:)`` does, with `following` behind it in the same
  /// round trip (libpq's pipeline mode) when both are prepared on this connection, outside a
  /// transaction, and `statement`'s result is bounded (a page's window): the rows of
  /// `following`, decoded by their types, or nil when it was not sent or failed.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], followedBy following: SQLStatement,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> [[DatabaseValue]]? {
    guard let rows = try query(statement, columns: columns, following: following, row: row)
    else { return nil }
    // Recorded after the first, as if sent after it; its time is in the first's.
    var timer = SQLTimer()
    timer.finish(following)
    return rows.rows.map { raw in
      raw.enumerated().map { index, text in
        text.map { PostgreSQLTypes.decode($0, oid: rows.types[index]) } ?? .null
      }
    }
  }

  /// ``query(_:columns:row:)``, with `following` pipelined when it can be.
  private func query(
    _ statement: SQLStatement, columns: [Attribute?], following: SQLStatement?,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> PostgreSQLConnection.FollowingRows? {
    try reconnectOutsideTransactions()
    var delivered = false
    do {
      return try stream(statement, columns: columns, following: following) { values in
        delivered = true
        try row(values)
      }
    } catch let error as DatabaseError
      where error.code == .connection && !delivered && isOutsideTransactions && connection.isLost
    {
      // A query changes nothing, so the one lost before its first row is sent again, once
      // (alone). After a row, never: the rows handed out would come twice.
      try connection.reconnectIfLost()
      return try stream(statement, columns: columns, following: nil, row: row)
    }
  }

  /// Runs `statement` reading its rows one by one, or at once when its result is bounded
  /// (see ``PostgreSQLConnection/stream(_:following:row:)``), and hands each on decoded for
  /// `columns`.
  private func stream(
    _ statement: SQLStatement, columns: [Attribute?], following: SQLStatement?,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> PostgreSQLConnection.FollowingRows? {
    // What decoding reads of the columns' attributes, once per statement.
    let columnTypes = columns.map { $0.map(PostgreSQLTypes.ColumnType.init) }
    // Per numeric column, the decimals its last texts were read as (through their buffer: no
    // exclusivity check of a captured array a value).
    var kept = columnTypes.map { _ in PostgreSQLTypes.DecimalMemo() }
    return try kept.withUnsafeMutableBufferPointer { memos in
      try stream(statement, columnTypes, following: following, memos: memos, row: row)
    }
  }

  /// ``stream(_:columns:following:row:)`` with the columns' types and decimal memos.
  private func stream(
    _ statement: SQLStatement, _ columnTypes: [PostgreSQLTypes.ColumnType?],
    following: SQLStatement?, memos: UnsafeMutableBufferPointer<PostgreSQLTypes.DecimalMemo>,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> PostgreSQLConnection.FollowingRows? {
    // The same array for every row, each row's values written over the last's, unless `row`
    // kept it (then it is copied): no array is made and freed per row.
    var values: [DatabaseValue] = []
    return try connection.stream(statement, following: following) { raw, types in
      func value(_ index: Int) -> DatabaseValue {
        raw.withValue(index) { bytes in
          if index < columnTypes.count, let type = columnTypes[index] {
            guard type.valueType == .decimal, !type.isMoney else {
              return PostgreSQLTypes.decode(bytes, as: type)
            }
            return memos[index].value(bytes) { PostgreSQLTypes.decode($0, as: type) }
          }
          return PostgreSQLTypes.decode(String(decoding: bytes, as: UTF8.self), oid: types[index])
        } ?? .null
      }
      if values.count == raw.count {
        // Through the buffer: no uniqueness check a value.
        values.withUnsafeMutableBufferPointer { values in
          for index in 0..<raw.count { values[index] = value(index) }
        }
      } else {
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(raw.count)
        for index in 0..<raw.count { values.append(value(index)) }
      }
      try row(values)
    }
  }

  /// Runs a statement; the number of rows it changed.
  @discardableResult
  public func execute(_ statement: SQLStatement) throws -> Int {
    try reconnectOutsideTransactions()
    return try connection.run(statement).affected
  }

  /// Inserts a row; its primary key values, from `RETURNING`.
  public func insert(into entity: Entity, values: [(Attribute, DatabaseValue)]) throws
    -> [DatabaseValue]
  {
    let keys = entity.primaryKeyAttributes
    do {
      return try transaction {
        var key: [DatabaseValue] = []
        try query(
          dialect.statement(SQLInsert(into: entity, values: values, returning: keys)),
          columns: keys
        ) { key = $0 }
        return key
      }
    } catch let error as DatabaseError where error.sqlState == "0A000" {
      // `INSERT … RETURNING` is not allowed (e.g. conditional rules on Sakila's `payment`):
      // take the key from its sequence first, then insert it.
      var values = values
      for attribute in keys where !values.contains(where: { $0.0 === attribute }) {
        guard let sequence = PostgreSQLAdaptor.sequenceName(inDefault: attribute.defaultValue)
        else {
          throw DatabaseError(
            .unsupported,
            "\(entity.name) does not allow INSERT … RETURNING and \(attribute.name) has no sequence default: \(error.message)"
          )
        }
        var next: DatabaseValue = .null
        try query(
          SQLStatement(raw: "SELECT nextval($1::regclass)", [.string(sequence)]),
          columns: [attribute]
        ) { next = $0[0] }
        values.append((attribute, next))
      }
      try execute(dialect.statement(SQLInsert(into: entity, values: values)))
      return keys.map { attribute in values.first { $0.0 === attribute }?.1 ?? .null }
    }
  }

  /// `nextval('payment_payment_id_seq'::regclass)` → `payment_payment_id_seq`.
  static func sequenceName(inDefault text: String?) -> String? {
    guard let text, let start = text.range(of: "nextval('"),
      let end = text.range(of: "'::regclass", range: start.upperBound..<text.endIndex)
    else { return nil }
    return String(text[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "''", with: "'")
  }

  /// Runs `body` in a transaction (a savepoint when one is open).
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    let depth = transactionDepth
    try executeScript(dialect.text(.begin, depth: depth))
    transactionDepth += 1
    defer { transactionDepth = depth }
    let result: T
    do {
      result = try body()
    } catch {
      try? connection.withoutInterruption {  // Ctrl-C may have caused the failure: undo it anyway
        try executeScript(dialect.text(.rollback, depth: depth))
      }
      throw error
    }
    do {
      // Once the work is done, a Ctrl-C must not make the outcome of the commit unclear.
      try connection.withoutInterruption {
        try executeScript(dialect.text(.commit, depth: depth))
      }
    } catch var error as DatabaseError where depth == 0 && error.code == .connection {
      // The COMMIT was sent, or may have been: it may have been applied. Never send it again.
      error.code = .outcomeUnknown
      error.message =
        "the connection was lost during COMMIT, so whether it was applied is unknown (\(error.message))"
      throw error
    } catch {
      try? connection.withoutInterruption {
        try executeScript(dialect.text(.rollback, depth: depth))
      }
      throw error
    }
    return result
  }

  /// Whether no transaction is open on this connection.
  var isOutsideTransactions: Bool {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    return transactionDepth == 0
  }

  /// The value as the column stores it: a date in the column's form.
  public func encode(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue {
    switch value {
    case .date(let date): .string(DatabaseValue.formatDate(date, kind: attribute.dateKind))
    default: value
    }
  }

  /// PostgreSQL's text types cannot hold a NUL character (bytea can, as `.data`).
  public func refusal(of value: DatabaseValue, for attribute: Attribute) -> String? {
    PostgreSQLTypes.holdsNUL(value) ? PostgreSQLTypes.nulRefusal : nil
  }
}
