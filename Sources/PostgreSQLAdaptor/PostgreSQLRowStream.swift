import CLibPQ
import D2SModel
import Foundation

/// The results of one query sent in libpq's single-row mode, read one row at a time: libpq
/// holds one row's `PGresult` and its input buffer, never the whole result, and the server
/// waits (its socket full) while rows are rendered. A bounded result (a page's window, see
/// ``PostgreSQLConnection/wholeResultRows``) is sent without single-row mode: it comes whole,
/// is parked as it is read, and the connection is free at once.
///
/// libpq runs one statement at a time. A statement from inside the row callback (a prefetch,
/// a fault) runs on a second connection (see ``PostgreSQLConnection/lend(_:)``), except
/// inside a transaction: then the stream is *parked*: its remaining rows are read into
/// memory first, and handed out from there afterwards.
final class PostgreSQLRowStream {
  unowned let connection: PostgreSQLConnection
  let sql: String
  /// The column type OIDs, known from the first row.
  private(set) var types: [UInt32] = []
  /// Whether libpq has given its last result (then the connection is free).
  private(set) var isFinished = false
  /// Rows read ahead by ``park()`` (or a whole result's), handed out before anything else.
  private var parked: [PostgreSQLRow] = []
  private var nextParked = 0
  /// The first failure the server reported; thrown once the rows before it are handed out.
  private var failure: DatabaseError?

  /// Whether the statement was sent outside a transaction block.
  let isOutsideTransactions: Bool

  /// A stream over the statement just sent (in single-row mode, unless its result is bounded).
  init(connection: PostgreSQLConnection, sql: String, isOutsideTransactions: Bool) {
    self.connection = connection
    self.sql = sql
    self.isOutsideTransactions = isOutsideTransactions
  }

  /// The next row, or nil after the last.
  /// - Throws: the server's error for the statement, or a `connection` error.
  func next() throws -> PostgreSQLRow? {
    while true {
      if nextParked < parked.count {
        defer { nextParked += 1 }
        return parked[nextParked]
      }
      if !parked.isEmpty {
        parked = []
        nextParked = 0
      }
      if !isFinished, let row = try readRow() { return row }
      // A result that came whole (not in single-row mode) was parked as it was read.
      if !parked.isEmpty { continue }
      if let failure {
        self.failure = nil
        throw failure
      }
      return nil
    }
  }

  /// Reads the rest of the rows into memory, so that the connection is free for another
  /// statement. A failure is kept and thrown after the rows read before it.
  func park() {
    do {
      // A row of single-row mode is read into memory: its result would keep a block of
      // libpq's for each row.
      while let row = try readRow() { parked.append(PostgreSQLRow(text: row.textValues)) }
    } catch let error as DatabaseError {
      failure = failure ?? error
      isFinished = true
    } catch {
      failure = failure ?? DatabaseError(.other, "\(error)", sql: sql)
      isFinished = true
    }
  }

  /// Stops reading early: asks the server to cancel the statement, then reads and drops what
  /// it still sends, so that the connection is free for the next statement. What was already
  /// on its way is at most what the socket buffers hold, since the server writes no faster
  /// than rows are read.
  func abandon() {
    guard !isFinished else { return }
    connection.requestCancel()
    do {
      while try connection.nextResult(sql: sql).map({ PQclear($0) }) != nil {}
    } catch {
      // The connection is gone; the next statement finds out and connects again.
    }
    isFinished = true
  }

  /// Reads results until the next row; nil once libpq has no more results. The server's
  /// errors are kept in ``failure``; a lost connection throws.
  private func readRow() throws -> PostgreSQLRow? {
    while let handle = try connection.nextResult(sql: sql) {
      let result = PostgreSQLResult(handle)
      // The result is cleared when `result` goes, which must not be before `handle` is read.
      if let row = withExtendedLifetime(result, { read(result) }) { return row }
    }
    isFinished = true
    return nil
  }

  /// The row of a result of single-row mode; nil for any other, whose rows are parked, or
  /// whose failure is kept.
  private func read(_ result: PostgreSQLResult) -> PostgreSQLRow? {
    let handle = result.handle
    let status = PQresultStatus(handle)
    switch status {
    case PGRES_SINGLE_TUPLE:
      let columns = Int(PQnfields(handle))
      if types.isEmpty { types = (0..<columns).map { PQftype(handle, Int32($0)) } }
      return PostgreSQLRow(result, row: 0, columns: columns)
    case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
      // The end of the rows (none left in single-row mode), or a statement without rows. A
      // whole result's rows are read from it, which stays until the last is handed out.
      let columns = Int(PQnfields(handle))
      if types.isEmpty { types = (0..<columns).map { PQftype(handle, Int32($0)) } }
      let rows = PQntuples(handle)
      parked.reserveCapacity(parked.count + Int(rows))
      for r in 0..<rows { parked.append(PostgreSQLRow(result, row: r, columns: columns)) }
    case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
      connection.endCopy(status)
      failure = failure ?? DatabaseError(.unsupported, "COPY is not supported", sql: sql)
    default:
      failure = failure ?? connection.error(handle, sql: sql)
    }
    return nil
  }
}
