import D2SModel
import EnvKeys

extension SQLiteAdaptor {
  /// The one plan step of a sort that takes in every selected row. SQLite names a sort that an
  /// index's order lets stop early differently (`… FOR RIGHT PART OF ORDER BY`, `… FOR LAST 2
  /// TERMS OF ORDER BY`); a plan worded in a way this does not know is never trusted.
  static let wholeSort = "USE TEMP B-TREE FOR ORDER BY"

  /// Whether `statement`'s plan sorts every row it selects: exactly one temporary B-tree, the
  /// whole ORDER BY's.
  public func sortsEverySelectedRow(_ statement: SQLStatement) throws -> Bool {
    let sorts = try connection.queryPlan(statement).filter { $0.contains("TEMP B-TREE") }
    return sorts == [Self.wholeSort]
  }

  /// Runs `statement` as ``query(_:columns:row:)`` does; with `tallying`, returns the calls of
  /// its `d2s_tally()` (the rows its sort took in).
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], tallying: Bool,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    guard tallying else {
      try query(statement, columns: columns, row: row)
      return nil
    }
    // Under the connection's lock (it is recursive: the query takes it again), so that the
    // count is this statement's alone.
    connection.lock.lock()
    defer { connection.lock.unlock() }
    connection.tallied = 0
    try query(statement, columns: columns, row: row)
    return connection.tallied
  }
}
