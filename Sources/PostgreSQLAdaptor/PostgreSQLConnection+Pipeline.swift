import CLibPQ
import D2SModel

/// Two queries in one round trip (libpq's pipeline mode): a page's rows and, right behind
/// them, its count. Both are sent, then one synchronisation point, so the server runs them in
/// one implicit transaction (the count sees what the page saw) and the client waits for the
/// server once instead of twice.
extension PostgreSQLConnection {
  /// The rows of a query sent behind another: text values (nil for NULL) and column OIDs.
  struct FollowingRows {
    /// The rows, read whole.
    var rows: [[String?]]
    /// The column type OIDs.
    var types: [UInt32]
  }

  /// Whether `statement` and `following` can go in one pipeline now: outside transactions
  /// (a failure then leaves nothing to undo), with `statement`'s result bounded (read whole,
  /// never row by row), both already prepared on this connection (a statement prepared first
  /// would need a round trip of its own), no value the server cannot take (refused before
  /// anything is sent) and no pipeline open.
  func canPipeline(_ statement: SQLStatement, _ following: SQLStatement) -> Bool {
    PQtransactionStatus(handle) == PQTRANS_IDLE
      && (statement.rowBound ?? .max) <= Self.wholeResultRows
      && prepared[statement.sql] != nil && prepared[following.sql] != nil
      && !statement.bindings.contains(where: PostgreSQLTypes.holdsNUL)
      && !following.bindings.contains(where: PostgreSQLTypes.holdsNUL)
      && PQpipelineStatus(handle) == PQ_PIPELINE_OFF
  }

  /// Enters pipeline mode and sends `statement`, `following` and a synchronisation point;
  /// false, with nothing sent, when libpq has no pipeline mode (before 14).
  /// - Throws: a `connection` error when sending failed (the pipeline is left).
  func sendPipelined(_ statement: SQLStatement, _ following: SQLStatement) throws -> Bool {
    guard PQenterPipelineMode(handle) == 1 else { return false }
    do {
      try send(statement, simple: false)
      try send(following, simple: false)
      guard PQpipelineSync(handle) == 1 else { throw connectionError(sql: statement.sql) }
    } catch {
      leavePipeline()
      throw error
    }
    pipelineCount += 1
    return true
  }

  /// Reads the results of `following` (once the first statement's are read) and the
  /// synchronisation point, and leaves pipeline mode: its rows, or nil when it failed or did
  /// not run (the first statement failed; the caller then sends it on its own). A stale
  /// prepared plan it met is forgotten, as ``error(_:sql:)`` does for any statement.
  func readFollowing(_ following: SQLStatement) -> FollowingRows? {
    var rows: [[String?]] = []
    var types: [UInt32] = []
    var succeeded = false
    var synchronised = false
    // Its results end with one nil; the synchronisation point comes next. A connection that
    // answers otherwise ends the loop after a few.
    var ends = 0
    do {
      while !synchronised, ends < 3 {
        guard let result = try nextResult(sql: following.sql) else {
          ends += 1
          continue
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK:
          let columns = Int(PQnfields(result))
          types = (0..<columns).map { PQftype(result, Int32($0)) }
          rows = (0..<Int(PQntuples(result))).map { values(of: result, row: $0, columns: columns) }
          succeeded = true
        case PGRES_PIPELINE_SYNC: synchronised = true
        case PGRES_PIPELINE_ABORTED: succeeded = false
        default:
          // Its failure is no reason to send the first statement again.
          let retry = droppedStalePlan
          _ = error(result, sql: following.sql)
          droppedStalePlan = retry
          succeeded = false
        }
      }
    } catch {
      succeeded = false
    }
    leavePipeline()
    return succeeded && synchronised ? FollowingRows(rows: rows, types: types) : nil
  }

  /// Leaves pipeline mode. A lost connection is left as it is: it is made again before the
  /// next statement (``reconnectIfLost()``, which leaves pipeline mode too), and a query lost
  /// before its first row is sent again then. When results are still uncollected on a live
  /// connection, the session is made anew: a connection left in pipeline mode would refuse
  /// every later statement. Only outside transactions, so nothing is lost.
  func leavePipeline() {
    guard PQpipelineStatus(handle) != PQ_PIPELINE_OFF, PQexitPipelineMode(handle) != 1,
      PQstatus(handle) == CONNECTION_OK
    else { return }
    PQreset(handle)
    prepared.removeAll()
    sentOnce.removeAll()
    if PQstatus(handle) == CONNECTION_OK {
      _ = try? run(SQLStatement(raw: sessionSettings), simple: true)
    }
  }
}
