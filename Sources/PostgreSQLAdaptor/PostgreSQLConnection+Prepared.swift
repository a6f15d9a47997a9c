import CLibPQ
import D2SModel

/// Named prepared statements: a query sent again is parsed and planned by the server once per
/// connection, the way a page's statements repeat request after request.
extension PostgreSQLConnection {
  /// The most statements prepared on one connection; past it, others are sent unnamed.
  static let maximumPrepared = 256

  /// The name `statement` is prepared under on this connection, preparing it now if it is a
  /// query sent before (a `SELECT` or `WITH` seen a second time: a statement sent once, as a
  /// script's, costs no extra round trip); nil to send it unnamed.
  /// - Throws: what the server says of the statement (the error sending it would give).
  func preparedName(for statement: SQLStatement) throws -> String? {
    if let name = prepared[statement.sql] { return name }
    guard prepared.count < Self.maximumPrepared, Self.isQuery(statement.sql) else { return nil }
    guard sentOnce.removeValue(forKey: statement.sql) != nil else {
      if sentOnce.count >= 1_024 { sentOnce.removeAll() }
      sentOnce[statement.sql] = true
      return nil
    }
    return try prepare(statement)
  }

  /// Prepares `statement` on this connection now, unless it is already or the connection
  /// has its most; its name, or nil when it was not prepared.
  /// - Throws: what the server says of the statement.
  @discardableResult
  func prepare(_ statement: SQLStatement) throws -> String? {
    if let name = prepared[statement.sql] { return name }
    guard prepared.count < Self.maximumPrepared else { return nil }
    preparedCount += 1
    let name = "d2s_\(preparedCount)"
    guard
      PQsendPrepare(handle, name, statement.sql, Int32(statement.bindings.count), nil) == 1
    else { throw connectionError(sql: statement.sql) }
    var failure: DatabaseError?
    while true {
      try awaitResult(sql: statement.sql)
      guard let result = PQgetResult(handle) else { break }
      if failure == nil, PQresultStatus(result) != PGRES_COMMAND_OK {
        failure = error(result, sql: statement.sql)
      }
      PQclear(result)
    }
    if let failure { throw failure }
    prepared[statement.sql] = name
    return name
  }

  /// Whether `sql` reads: only queries are kept prepared (writes are rarer, and sent as they
  /// come).
  static func isQuery(_ sql: String) -> Bool {
    let head = sql.utf8.prefix(6).map { $0 | 0x20 }
    return head.starts(with: Array("select".utf8)) || head.starts(with: Array("with ".utf8))
  }
}
