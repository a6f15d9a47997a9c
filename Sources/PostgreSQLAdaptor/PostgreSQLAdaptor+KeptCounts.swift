import CLibPQ
import D2SModel
import EnvKeys

/// A whole table's count kept from page to page while nothing is committed.
///
/// A list page of a small table counts it on every request, in the rows' round trip. Over
/// PostgreSQL that count is most of the server's work for the page (a scan of the table,
/// where the rows are a short walk of an index). The server's snapshot as text
/// (`pg_current_snapshot()`: the oldest running transaction, one past the latest finished,
/// the running ones between) changes with every commit or rollback, anywhere on the server;
/// while it stays the same, every table's committed rows do too. So the count goes with the
/// snapshot it was made in, and the next page's count statement makes it only when its own
/// snapshot differs:
///
/// ```sql
/// SELECT CASE WHEN pg_current_snapshot()::text = $1 THEN NULL ELSE (SELECT count(*) …) END,
///        pg_current_snapshot()::text
/// ```
///
/// The server runs the count's subquery only when its value is needed. Kept only for a table
/// whose rows change by commits alone: a plain table (`relkind = 'r'`, read with its estimate)
/// without row security (a policy may read the clock) or inheriting tables (one may be
/// foreign); never a view or a foreign table, and never inside a transaction (its own
/// uncommitted rows do not change the snapshot).
extension PostgreSQLAdaptor {
  /// A table's estimate and what it says of its count, as ``estimatedRowCount(of:)`` read it.
  struct Estimate {
    /// The planner's estimate, or nil.
    var estimate: Int?
    /// When it was read.
    var read: ContinuousClock.Instant
    /// Whether the table's rows change only by commits, so that its count may be kept.
    var keepsCount: Bool
  }

  /// A count and the snapshot it was made in.
  struct KeptCount {
    /// `pg_current_snapshot()` as text, in the count's own statement.
    var snapshot: String
    /// The count.
    var count: Int
  }

  /// The most counts kept per connection; past it, those kept are forgotten.
  static let maximumKeptCounts = 256

  /// Runs `statement` with `count` behind it in one round trip, as
  /// ``query(_:columns:followedBy:row:)`` does; a plain table's count is made only when a
  /// commit has happened since it was last made on this connection (see above), and so are
  /// the rows of a statement reading that table alone (``queryKeepingRows(_:columns:followedBy:row:)``).
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], countingRowsOf entity: Entity,
    with count: SQLStatement, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    guard count.bindings.isEmpty, keepsCount(of: entity) else {
      return try query(statement, columns: columns, followedBy: count, row: row)?
        .first?.first?.intValue
    }
    let kept = keptCounts.withLock { $0[count.sql] }
    let conditional = SQLStatement(
      raw: """
        SELECT CASE WHEN pg_catalog.pg_current_snapshot()::text = $1 THEN NULL \
        ELSE (\(count.sql)) END, pg_catalog.pg_current_snapshot()::text
        """,
      [.string(kept?.snapshot ?? "")])
    let table = dialect.quote(table: entity.externalName, schema: entity.schema)
    let keepsRows = Self.keepsRows(of: statement) && statement.sql.contains(" FROM \(table) ")
    if keepsRows, let kept, let counted = try answerFromSnapshot(statement, count: kept, row: row) {
      return counted
    }
    let answer: [DatabaseValue]?
    if keepsRows {
      answer = try queryKeepingRows(statement, columns: columns, followedBy: conditional, row: row)
    } else {
      prepare(conditional, behind: statement)
      answer = try query(statement, columns: columns, followedBy: conditional, row: row)?.first
    }
    guard let answer, answer.count == 2, case .string(let snapshot) = answer[1] else {
      return nil
    }
    if let counted = answer[0].intValue {
      keptCounts.withLock { counts in
        if counts.count >= Self.maximumKeptCounts { counts.removeAll() }
        counts[count.sql] = KeptCount(snapshot: snapshot, count: counted)
      }
      return counted
    }
    // Not counted: the snapshot was the one sent, so the kept count is the table's.
    guard let kept, kept.snapshot == snapshot, answer[0].isNull else { return nil }
    keptCountAnswers.withLock { $0 += 1 }
    return kept.count
  }

  /// Prepares `conditional` once `statement` is prepared (a page's rows, from their second
  /// time), so that both go in one round trip from then on: unlike the count alone, it is
  /// never sent on its own, so it would never be prepared by being sent twice.
  /// A failure (a connection lost since the last page) is left to the query that follows,
  /// which connects again; the count then goes alone.
  func prepare(_ conditional: SQLStatement, behind statement: SQLStatement) {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    // Idle: no transaction, and no other statement's rows being read on it (a query made
    // for each of them goes to a helper connection).
    guard connection.prepared[statement.sql] != nil, connection.prepared[conditional.sql] == nil,
      PQtransactionStatus(connection.handle) == PQTRANS_IDLE
    else { return }
    _ = try? connection.prepare(conditional)
  }

  /// Whether `entity`'s count may be kept now: a plain table, as its estimate read lately
  /// said, outside transactions, on a server with `pg_current_snapshot()` (13 and later).
  private func keepsCount(of entity: Entity) -> Bool {
    guard !entity.isView, isOutsideTransactions, connection.serverVersion >= 130_000 else {
      return false
    }
    let name = dialect.quote(table: entity.externalName, schema: entity.schema)
    return estimates.withLock { $0[name]?.keepsCount } ?? false
  }
}
