import CLibPQ
import CLibPQLoader
import D2SModel
import EnvKeys
import Foundation

/// One libpq connection: owns the handle, runs statements with untyped text parameters, and
/// turns failures into ``DatabaseError``s with the server's message and SQLSTATE.
final class PostgreSQLConnection: InterruptibleConnection, @unchecked Sendable {
  let handle: OpaquePointer
  let lock = NSRecursiveLock()
  /// How many statements were sent, through this connection or lent to ``helper``.
  var statementCount = 0
  /// How many times two statements went in one round trip (``sendPipelined(_:_:)``).
  var pipelineCount = 0
  /// Server notices (`NOTICE: …`), kept instead of printed to stderr.
  private(set) var notices: [String] = []
  /// The query whose rows are being handed out (read row by row, or parked when it came
  /// whole; see ``stream(_:following:row:)``).
  var activeStream: PostgreSQLRowStream?
  /// The statements prepared on this connection, by their SQL (``preparedName(for:)``).
  var prepared: [String: String] = [:]
  /// Queries sent once, unnamed: prepared when sent again.
  var sentOnce: [String: Bool] = [:]
  /// Set when a failure dropped the statement's prepared plan: the statement may be sent
  /// again, unnamed, once (``retryingAStalePlan(_:)``).
  var droppedStalePlan = false
  /// How many statements were prepared: names are never reused, even after a failure.
  var preparedCount = 0
  /// The URL or conninfo it connected with.
  let conninfo: String
  /// A second connection for statements from inside a row callback, made when first needed
  /// (see ``connectionForNextStatement()``).
  var helper: PostgreSQLConnection?

  /// Connects with a `postgresql://` URL or a `key=value` conninfo string.
  init(conninfo: String) throws {
    guard let handle = PQconnectdb(conninfo) else {
      let reason =
        d2s_libpq_load_error().map { "cannot load libpq: " + String(cString: $0) }
        ?? "out of memory"
      throw DatabaseError(.connection, "cannot connect: \(reason)")
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(
        in: .whitespacesAndNewlines)
      PQfinish(handle)
      throw DatabaseError(.connection, "cannot connect to PostgreSQL: \(message)")
    }
    self.handle = handle
    self.conninfo = conninfo
    PQsetNoticeProcessor(
      handle,
      { context, message in
        guard let context, let message else { return }
        let connection = Unmanaged<PostgreSQLConnection>.fromOpaque(context).takeUnretainedValue()
        connection.notices.append(
          String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))
      }, Unmanaged.passUnretained(self).toOpaque())
    try setUpSession()
  }

  /// Session settings, sent again after a reconnection.
  var sessionSettings =
    "SET DateStyle = ISO; SET TimeZone = 'UTC'; SET client_min_messages = warning"

  private func setUpSession() throws {
    _ = try run(SQLStatement(raw: sessionSettings), simple: true)
  }

  deinit { PQfinish(handle) }

  /// The database name of the connection.
  var databaseName: String { PQdb(handle).map { String(cString: $0) } ?? "postgres" }
  /// The server's version as a number (`150018` for 15.18), or 0 when not connected.
  var serverVersion: Int { Int(PQserverVersion(handle)) }

  /// A result: text values (nil for NULL), column type OIDs, and the changed-row count.
  struct Result {
    var rows: [[String?]]
    var types: [UInt32]
    var affected: Int
  }

  /// Runs one statement (or, with `simple`, several without parameters). Its time for
  /// ``SQLTrace`` is all of this: sending it, waiting, and reading the whole result.
  func run(
    _ statement: SQLStatement, simple: Bool = false,
    encode: (DatabaseValue) -> String? = PostgreSQLTypes.text
  )
    throws -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    if let other = try lend(statement) {
      return try other.run(statement, simple: simple, encode: encode)
    }
    return try retryingAStalePlan {
      try runOnce(statement, simple: simple, encode: encode)
    }
  }

  /// `body`, and once more when it failed because the server refused the statement's prepared
  /// plan (a table changed under it) outside a transaction: nothing was done, and the
  /// statement goes unnamed the second time.
  func retryingAStalePlan<T>(_ body: () throws -> T) throws -> T {
    droppedStalePlan = false
    do {
      return try body()
    } catch  where droppedStalePlan && PQtransactionStatus(handle) == PQTRANS_IDLE {
      droppedStalePlan = false
      return try body()
    }
  }

  /// ``run(_:simple:encode:)`` on this connection, once.
  private func runOnce(
    _ statement: SQLStatement, simple: Bool, encode: (DatabaseValue) -> String?
  ) throws -> Result {
    var timer = SQLTimer()
    defer { timer.finish(statement) }
    try send(statement, simple: simple, encode: encode)
    // As PQexec: the last result, unless one failed (the server stops at the first failure).
    var last: OpaquePointer?
    defer { PQclear(last) }
    var failure: DatabaseError?
    while true {
      try awaitResult(sql: statement.sql)
      guard let next = PQgetResult(handle) else { break }
      let status = PQresultStatus(next)
      if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
        // COPY is not supported: end it, so that the results run out (PQgetResult would
        // answer the COPY state forever).
        PQclear(next)
        endCopy(status)
        failure =
          failure ?? DatabaseError(.unsupported, "COPY is not supported", sql: statement.sql)
        continue
      }
      if failure == nil && status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK {
        failure = error(next, sql: statement.sql)
      }
      PQclear(last)
      last = next
    }
    if let failure { throw failure }
    guard let result = last else { throw connectionError(sql: statement.sql) }
    let rowCount = Int(PQntuples(result))
    let columnCount = Int(PQnfields(result))
    var rows: [[String?]] = []
    rows.reserveCapacity(rowCount)
    for r in 0..<rowCount {
      rows.append(values(of: result, row: r, columns: columnCount))
    }
    let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
    let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    return Result(rows: rows, types: types, affected: affected)
  }

  /// Sends one statement (or, with `simple`, several without parameters) without waiting
  /// for its results, and counts it.
  func send(
    _ statement: SQLStatement, simple: Bool,
    encode: (DatabaseValue) -> String? = PostgreSQLTypes.text
  ) throws {
    logStatement(statement)
    statementCount += 1
    let sent: Int32
    if simple {
      sent = PQsendQuery(handle, statement.sql)
    } else {
      // libpq reads a parameter up to its first NUL: such a value would be cut short.
      if statement.bindings.contains(where: PostgreSQLTypes.holdsNUL) {
        throw DatabaseError(.invalidValue, PostgreSQLTypes.nulRefusal, sql: statement.sql)
      }
      let parameters: [UnsafeMutablePointer<CChar>?] = statement.bindings.map { value in
        encode(value).flatMap { strdup($0) }
      }
      defer { for parameter in parameters { free(parameter) } }
      let name = try preparedName(for: statement)
      sent = parameters.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
        if let name {
          PQsendQueryPrepared(
            handle, name, Int32(parameters.count), buffer.baseAddress, nil, nil, 0)
        } else {
          PQsendQueryParams(
            handle, statement.sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
      }
    }
    guard sent == 1 else { throw connectionError(sql: statement.sql) }
  }

  /// The text values of row `r` of `result` (nil for NULL).
  func values(of result: OpaquePointer, row r: Int, columns: Int) -> [String?] {
    var row: [String?] = []
    row.reserveCapacity(columns)
    for c in 0..<columns {
      if PQgetisnull(result, Int32(r), Int32(c)) == 1 {
        row.append(nil)
      } else {
        let bytes = PostgreSQLRow.bytes(in: result, row: Int32(r), column: Int32(c))
        row.append(String(decoding: bytes, as: UTF8.self))
      }
    }
    return row
  }

  /// Whether to cancel the statement being waited for: the REPL's Ctrl-C (tests set it).
  var isInterrupted: @Sendable () -> Bool = { Interruption.isRequested }

  /// Waits until the server has sent the next result, reading as it comes, so that
  /// `PQgetResult` does not block. While the statement still runs it looks at
  /// ``isInterrupted`` every 100 ms (and at once on a signal) and then asks the server to
  /// cancel it, again every 100 ms: a request that reaches the server before it has started
  /// the statement is dropped. A cancelled statement fails with SQLSTATE 57014.
  func awaitResult(sql: String) throws {
    var lastCancel: ContinuousClock.Instant?
    while PQisBusy(handle) == 1 {
      var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      if poll(&socket, 1, 100) < 0 && errno != EINTR { throw connectionError(sql: sql) }
      guard PQconsumeInput(handle) == 1 else { throw connectionError(sql: sql) }
      if PQisBusy(handle) == 1 && isInterrupted()
        && lastCancel.map({ $0.duration(to: .now) >= .milliseconds(100) }) ?? true
      {
        lastCancel = .now
        requestCancel()
      }
    }
  }

  /// Leaves a COPY state: refuses to send data, or reads and drops what the server sends.
  func endCopy(_ status: ExecStatusType) {
    if status == PGRES_COPY_OUT {
      var buffer: UnsafeMutablePointer<CChar>?
      while PQgetCopyData(handle, &buffer, 0) >= 0 {
        PQfreemem(buffer)
        buffer = nil
      }
    } else {
      _ = PQputCopyEnd(handle, "COPY is not supported")
    }
  }

  /// Asks the server to cancel the statement this connection is running (on a connection
  /// of its own; an idle server ignores it).
  func requestCancel() {
    guard let cancel = PQgetCancel(handle) else { return }
    var message = [CChar](repeating: 0, count: 256)
    _ = PQcancel(cancel, &message, Int32(message.count))
    PQfreeCancel(cancel)
  }

  func connectionError(sql: String) -> DatabaseError {
    let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(
      in: .whitespacesAndNewlines)
    return DatabaseError(
      .connection, message.isEmpty ? "the connection to PostgreSQL failed" : message, sql: sql)
  }

  /// The SQLSTATE of a failed result, mapped to a code, with the primary message.
  func error(_ result: OpaquePointer, sql: String) -> DatabaseError {
    func field(_ code: Int32) -> String? {
      PQresultErrorField(result, code).map { String(cString: $0) }
    }
    let state = field(Int32(UInt8(ascii: "C"))) ?? ""
    let message = field(Int32(UInt8(ascii: "M"))) ?? String(cString: PQresultErrorMessage(result))
    let detail = field(Int32(UInt8(ascii: "D"))).map { " (\($0))" } ?? ""
    let code: DatabaseError.Code
    switch state {
    case "23502": code = .notNull
    case "23503": code = .foreignKey
    case "23505": code = .unique
    case "23514": code = .check
    // Not supported, and program limits (a statement too deep: "stack depth limit exceeded",
    // too many columns or joins).
    case "0A000", "54000", "54001", "54011", "54023": code = .unsupported
    case "57014": return DatabaseError(.interrupted, "interrupted", sql: sql)  // query_canceled
    // Data exceptions: a value the column cannot hold (too long, out of range, not of its
    // type), in the server's words, which name the value, never the statement.
    case _ where state.hasPrefix("22"): code = .invalidValue
    // Connection exceptions, and the server shutting down or starting up.
    default:
      code =
        state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) ? .connection : .other
    }
    var error = DatabaseError(code, message + detail, sql: sql)
    // A prepared statement the server no longer has (26000), or whose plan a change of the
    // table made stale (0A000, "cached plan must not change result type", in the server's
    // language): sent unnamed, and prepared again, from now on.
    if state == "26000" || state == "0A000", prepared.removeValue(forKey: sql) != nil {
      droppedStalePlan = true
    }
    error.sqlState = state
    return error
  }
}
