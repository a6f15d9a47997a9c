import CLibPQ
import D2SModel
import Foundation

/// Queries read row by row (libpq's single-row mode), so that a long result is never held
/// whole; see ``PostgreSQLRowStream``.
extension PostgreSQLConnection {
  /// Runs a query and hands each row to `row` as it arrives from the server: its text values
  /// (nil for NULL) and the column type OIDs. ``isInterrupted`` is asked before each row; a
  /// stop, or an error thrown by `row`, cancels the statement on the server and leaves the
  /// connection ready for the next one.
  /// - Throws: the server's error; `interrupted`; a `connection` error, which says how many
  ///   rows were read before the connection was lost (those rows are then incomplete).
  func stream(_ statement: SQLStatement, row: ([String?], [UInt32]) throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    parkActiveStream()
    try send(statement, simple: false)
    // Right after sending, as libpq requires; if it is refused, the result comes whole.
    _ = PQsetSingleRowMode(handle)
    let stream = PostgreSQLRowStream(connection: self, sql: statement.sql)
    let outer = activeStream
    activeStream = stream
    defer { activeStream = outer }
    var delivered = 0
    do {
      while let values = try stream.next() {
        if isInterrupted() { throw DatabaseError(.interrupted, "interrupted", sql: statement.sql) }
        try row(values, stream.types)
        delivered += 1
      }
    } catch {
      stream.abandon()
      guard delivered > 0, var lost = error as? DatabaseError,
        lost.code == .connection || PQstatus(handle) == CONNECTION_BAD
      else { throw error }
      // Never read again from the start: the rows handed out would come twice.
      lost.code = .connection
      lost.message =
        "the connection to PostgreSQL was lost after \(delivered) rows were read, so they are incomplete: \(lost.message)"
      throw lost
    }
  }

  /// Frees the connection for another statement: the query being read row by row, if any,
  /// reads its remaining rows into memory first.
  func parkActiveStream() {
    guard let stream = activeStream, !stream.isFinished else { return }
    stream.park()
  }

  /// The next result of the statement sent, waited for (see ``awaitResult(sql:)``); nil when
  /// there are no more.
  func nextResult(sql: String) throws -> OpaquePointer? {
    try awaitResult(sql: sql)
    return PQgetResult(handle)
  }
}
