import CLibPQ
import D2SModel
import Foundation

/// Queries read row by row (libpq's single-row mode), so that a long result is never held
/// whole; a result of at most ``wholeResultRows`` (a page's window) is read at once. See
/// ``PostgreSQLRowStream``.
extension PostgreSQLConnection {
  /// The most rows a statement's `LIMIT` may allow for its result to be read whole
  /// (``D2SModel/SQLStatement/rowBound``); past it, rows are read one by one. A page's
  /// window fits; it is one batch of the rows a list reads ahead anyway (`RowReadAhead`), so
  /// a table of wide rows holds at most that many at once (twice: libpq's result and the
  /// decoded rows).
  static let wholeResultRows = 256

  /// Runs a query and hands each row to `row` as it arrives from the server (a bounded
  /// result: once the whole of it has arrived), with the column type OIDs. ``isInterrupted``
  /// is asked before each row; a stop, or an error thrown by `row`, cancels the statement on
  /// the server and leaves the connection ready for the next one.
  ///
  /// With `following` (a query of a few rows, such as the page's count), both go in one round
  /// trip when they can (see ``canPipeline(_:_:)``), and its rows are returned, read before
  /// the first row is handed to `row`; nil when it was not sent (send it on its own then).
  /// - Throws: the server's error; `interrupted`; a `connection` error, which says how many
  ///   rows were read before the connection was lost (those rows are then incomplete).
  @discardableResult
  func stream(
    _ statement: SQLStatement, following: SQLStatement? = nil,
    row: (PostgreSQLRow, [UInt32]) throws -> Void
  ) throws -> FollowingRows? {
    lock.lock()
    defer { lock.unlock() }
    if let other = try lend(statement) {
      try other.stream(statement, row: row)
      return nil
    }
    // A second attempt (a stale plan) goes alone.
    var following = following
    return try retryingAStalePlan {
      defer { following = nil }
      return try streamOnce(statement, following: following, row: row)
    }
  }

  /// ``stream(_:following:row:)`` on this connection, once.
  private func streamOnce(
    _ statement: SQLStatement, following: SQLStatement?,
    row: (PostgreSQLRow, [UInt32]) throws -> Void
  ) throws -> FollowingRows? {
    let isOutsideTransactions = PQtransactionStatus(handle) == PQTRANS_IDLE
    // Its time for ``SQLTrace``: sending it and reading its rows, not what `row` does (and,
    // pipelined, the rows of `following` too: they come in the same wait).
    var timer = SQLTimer()
    defer { timer.finish(statement) }
    var pipelined = false
    if let following, canPipeline(statement, following) {
      pipelined = try sendPipelined(statement, following)
    }
    if !pipelined {
      try send(statement, simple: false)
      // Right after sending, as libpq requires; if it is refused, the result comes whole. A
      // result of a few rows (a page's window) comes whole anyway: one result, where
      // single-row mode makes one per row.
      if (statement.rowBound ?? .max) > Self.wholeResultRows { _ = PQsetSingleRowMode(handle) }
    }
    let stream = PostgreSQLRowStream(
      connection: self, sql: statement.sql, isOutsideTransactions: isOutsideTransactions)
    let outer = activeStream
    activeStream = stream
    defer { activeStream = outer }
    // Pipelined, the first result is read whole (it is bounded), then the second's.
    var followingRows: FollowingRows?
    if pipelined, let following {
      stream.park()
      followingRows = readFollowing(following)
    }
    var delivered = 0
    do {
      while let values = try stream.next() {
        if isInterrupted() { throw DatabaseError(.interrupted, "interrupted", sql: statement.sql) }
        timer.pause()
        defer { timer.resume() }
        try row(values, stream.types)
        delivered += 1
      }
    } catch {
      stream.abandon()
      // Rows handed out are never handed out again.
      if delivered > 0 { droppedStalePlan = false }
      guard delivered > 0, var lost = error as? DatabaseError,
        lost.code == .connection || PQstatus(handle) == CONNECTION_BAD
      else { throw error }
      // Never read again from the start: the rows handed out would come twice.
      lost.code = .connection
      lost.message =
        "the connection to PostgreSQL was lost after \(delivered) rows were read, so they are incomplete: \(lost.message)"
      throw lost
    }
    return followingRows
  }

  /// The connection to run `statement` on when this one is busy handing out rows (a statement
  /// from inside a row callback: a prefetch, a fault), or nil to run it here.
  ///
  /// Outside transactions, the rows keep coming and the statement runs on ``helper``, a
  /// second connection with the same settings, made when first needed: it sees what this one
  /// would, since each statement outside a transaction sees what is committed when it
  /// starts. Inside one, only this connection sees the transaction's work: the stream is
  /// parked (its remaining rows are read into memory), and so it is when no second
  /// connection can be made.
  func lend(_ statement: SQLStatement) throws -> PostgreSQLConnection? {
    guard let stream = activeStream, !stream.isFinished else { return nil }
    if stream.isOutsideTransactions {
      do {
        let helper = try self.helper ?? PostgreSQLConnection(conninfo: conninfo)
        if self.helper == nil {
          helper.sessionSettings = sessionSettings
          _ = try helper.run(SQLStatement(raw: sessionSettings), simple: true)
          self.helper = helper
        }
        try helper.reconnectIfLost()
        helper.isInterrupted = isInterrupted
        statementCount += 1
        return helper
      } catch {
        // No second connection: this one does it, once the rows are read.
      }
    }
    stream.park()
    return nil
  }

  /// The next result of the statement sent, waited for (see ``awaitResult(sql:)``); nil when
  /// there are no more.
  func nextResult(sql: String) throws -> OpaquePointer? {
    try awaitResult(sql: sql)
    return PQgetResult(handle)
  }
}
