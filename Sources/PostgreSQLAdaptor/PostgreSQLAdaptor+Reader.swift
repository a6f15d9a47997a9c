import D2SModel

/// A second connection for counting beside the first, row estimates, and interruption.
extension PostgreSQLAdaptor {
  /// Another session on the same server and database, read-only, whose statements run in
  /// one server process (no parallel workers), so that a count beside a page takes as little
  /// as it can from the page's own statement.
  public func openReader() throws -> (any DatabaseAdaptor)? {
    let reader = try PostgreSQLAdaptor(url: url, readOnly: true)
    reader.connection.sessionSettings += "; SET max_parallel_workers_per_gather = 0"
    try reader.executeScript("SET max_parallel_workers_per_gather = 0")
    return reader
  }

  /// How long a table's estimate is reused. The planner's figure changes only when the
  /// table is analyzed (autovacuum does it a minute apart at the least), so a list page need
  /// not ask for it on every request; a script this connection runs (which may analyze)
  /// forgets the estimates read.
  public static let estimateLifetime: Duration = .seconds(5)

  /// `pg_class.reltuples`, the planner's estimate, or nil for a view or a table never
  /// analyzed (-1); read at most once per ``estimateLifetime``, with whether the table's
  /// count may be kept (``Estimate/keepsCount``).
  public func estimatedRowCount(of entity: Entity) throws -> Int? {
    guard !entity.isView else { return nil }
    let name = dialect.quote(table: entity.externalName, schema: entity.schema)
    let now = ContinuousClock.now
    if let kept = estimates.withLock({ $0[name] }), now - kept.read < Self.estimateLifetime {
      return kept.estimate
    }
    var estimate: Int?
    var keepsCount = false
    // Whether the count may be kept is asked only where it could be (13 and later; the
    // columns it reads are from 9.5).
    let keeps =
      connection.serverVersion >= 130_000
      ? "CAST(relkind = 'r' AND NOT relrowsecurity AND NOT relhassubclass AS int)" : "0"
    try query(
      SQLStatement(
        raw: "SELECT CAST(reltuples AS bigint), \(keeps) FROM pg_class WHERE oid = to_regclass($1)",
        [.string(name)]), columns: [nil, nil]
    ) { row in
      estimate = row.first?.intValue
      keepsCount = row.count > 1 && row[1].intValue == 1
    }
    let known = estimate.flatMap { $0 >= 0 ? $0 : nil }
    estimates.withLock { $0[name] = Estimate(estimate: known, read: now, keepsCount: keepsCount) }
    return known
  }

  /// No: the server's parallel workers already take every core for a large statement.
  public var countsBesideStatements: Bool { false }

  /// A `numeric(p,s)` value is stored with its `s` fraction digits.
  public var keepsDecimalScale: Bool { true }

  /// Lets `isInterrupted` stop this connection's statements.
  public func interrupt(when isInterrupted: @escaping @Sendable () -> Bool) {
    connection.isInterrupted = isInterrupted
  }
}
