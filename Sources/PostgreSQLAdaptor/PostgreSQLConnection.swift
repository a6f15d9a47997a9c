import CLibPQ
import D2SModel
import Foundation

/// One libpq connection: owns the handle, runs statements with untyped text parameters, and
/// turns failures into ``DatabaseError``s with the server's message and SQLSTATE.
final class PostgreSQLConnection: @unchecked Sendable {
  let handle: OpaquePointer
  let lock = NSRecursiveLock()
  private(set) var statementCount = 0
  /// Server notices (`NOTICE: …`), kept instead of printed to stderr.
  private(set) var notices: [String] = []

  /// Connects with a `postgresql://` URL or a `key=value` conninfo string.
  init(conninfo: String) throws {
    guard let handle = PQconnectdb(conninfo) else {
      throw DatabaseError(.connection, "cannot connect: out of memory")
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
      PQfinish(handle)
      throw DatabaseError(.connection, "cannot connect to PostgreSQL: \(message)")
    }
    self.handle = handle
    PQsetNoticeProcessor(handle, { context, message in
      guard let context, let message else { return }
      let connection = Unmanaged<PostgreSQLConnection>.fromOpaque(context).takeUnretainedValue()
      connection.notices.append(String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))
    }, Unmanaged.passUnretained(self).toOpaque())
    _ = try run(SQLStatement("SET DateStyle = ISO; SET TimeZone = 'UTC'; SET client_min_messages = warning"), simple: true)
  }

  deinit { PQfinish(handle) }

  /// The database name of the connection.
  var databaseName: String { PQdb(handle).map { String(cString: $0) } ?? "postgres" }

  /// A result: text values (nil for NULL), column type OIDs, and the changed-row count.
  struct Result {
    var rows: [[String?]]
    var types: [UInt32]
    var affected: Int
  }

  /// Runs one statement (or, with `simple`, several without parameters).
  func run(_ statement: SQLStatement, simple: Bool = false, encode: (DatabaseValue) -> String? = PostgreSQLTypes.text)
    throws -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    logStatement(statement)
    statementCount += 1
    let result: OpaquePointer?
    if simple {
      result = PQexec(handle, statement.sql)
    } else {
      let parameters: [UnsafeMutablePointer<CChar>?] = statement.bindings.map { value in encode(value).flatMap { strdup($0) } }
      defer { parameters.forEach { free($0) } }
      result = parameters.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
        PQexecParams(handle, statement.sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
      }
    }
    guard let result else { throw DatabaseError(.connection, String(cString: PQerrorMessage(handle)), sql: statement.sql) }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else { throw error(result, sql: statement.sql) }
    let rowCount = Int(PQntuples(result))
    let columnCount = Int(PQnfields(result))
    var rows: [[String?]] = []
    rows.reserveCapacity(rowCount)
    for r in 0..<rowCount {
      var row: [String?] = []
      row.reserveCapacity(columnCount)
      for c in 0..<columnCount {
        if PQgetisnull(result, Int32(r), Int32(c)) == 1 {
          row.append(nil)
        } else {
          row.append(String(cString: PQgetvalue(result, Int32(r), Int32(c))))
        }
      }
      rows.append(row)
    }
    let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
    let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    return Result(rows: rows, types: types, affected: affected)
  }

  /// The SQLSTATE of a failed result, mapped to a code, with the primary message.
  func error(_ result: OpaquePointer, sql: String) -> DatabaseError {
    func field(_ code: Int32) -> String? { PQresultErrorField(result, code).map { String(cString: $0) } }
    let state = field(Int32(UInt8(ascii: "C"))) ?? ""
    let message = field(Int32(UInt8(ascii: "M"))) ?? String(cString: PQresultErrorMessage(result))
    let detail = field(Int32(UInt8(ascii: "D"))).map { " (\($0))" } ?? ""
    let code: DatabaseError.Code
    switch state {
    case "23502": code = .notNull
    case "23503": code = .foreignKey
    case "23505": code = .unique
    case "23514": code = .check
    case "0A000": code = .unsupported
    default: code = state.hasPrefix("08") ? .connection : .other
    }
    var error = DatabaseError(code, message + detail, sql: sql)
    error.sqlState = state
    return error
  }
}
