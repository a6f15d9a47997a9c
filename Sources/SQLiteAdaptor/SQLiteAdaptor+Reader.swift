import D2SModel

/// A second connection for counting beside the first, row estimates, and interruption.
extension SQLiteAdaptor {
  /// The same file opened again, read-only (nil for `:memory:`, which another connection
  /// would not see).
  public func openReader() throws -> (any DatabaseAdaptor)? {
    guard location.path != ":memory:", !location.path.isEmpty else { return nil }
    var reader = location
    reader.readOnly = true
    return try SQLiteAdaptor(location: reader)
  }

  /// The largest row id of a rowid table, else the row count `sqlite_stat1` holds when the
  /// file already has that table (nothing here ever runs `ANALYZE` on a user's file); kept
  /// while the file stays the same (see `SQLiteAdaptor+KeptFigures.swift`).
  public func estimatedRowCount(of entity: Entity) throws -> Int? {
    guard !entity.isView else { return nil }
    return try keptEstimate(of: entity) { try readEstimate(of: entity) }
  }

  /// The estimate as ``estimatedRowCount(of:)`` reads it when none is kept.
  private func readEstimate(of entity: Entity) throws -> Int? {
    let table = SQLSource(.table(entity.externalName, schema: entity.schema))
    do {
      let largest = SQLSelect([.function(.max, [.rowID])], from: table)
      return try integer(dialect.statement(largest)) ?? 0
    } catch let error as DatabaseError where error.code != .interrupted {
      // A WITHOUT ROWID table has no row ids: try the statistics.
    }
    let statistics = try integer(
      SQLStatement(
        raw:
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'"))
    guard statistics == 1 else { return nil }
    let stat = try text(
      SQLStatement(
        raw:
          "SELECT stat FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx IS NOT NULL LIMIT 1",
        [.string(entity.externalName)]))
    return stat?.split(separator: " ").first.flatMap { Int($0) }
  }

  /// Lets `isInterrupted` stop this connection's statements.
  public func interrupt(when isInterrupted: @escaping @Sendable () -> Bool) {
    connection.isInterrupted = isInterrupted
  }

  private func integer(_ statement: SQLStatement) throws -> Int? {
    var value: Int?
    try query(statement, columns: [nil]) { value = $0.first?.intValue }
    return value
  }

  private func text(_ statement: SQLStatement) throws -> String? {
    var value: String?
    try query(statement, columns: [nil]) {
      if case .string(let text) = $0.first { value = text }
    }
    return value
  }
}
