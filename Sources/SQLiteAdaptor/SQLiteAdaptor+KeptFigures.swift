import CSQLite
import D2SModel
import EnvKeys

/// A table's count and row estimate kept from page to page while its file stays the same.
///
/// A list page of a small table reads the table's estimate (`max(rowid)`) and counts it: two
/// statements beside its rows, on every request. SQLite's pager numbers the file's versions
/// (`SQLITE_FCNTL_DATA_VERSION`, which moves with every commit, this connection's or
/// another's, as this connection's next statement finds it) and the connection counts the
/// rows it changes (`sqlite3_total_changes64`, uncommitted ones too). While both stay the
/// same, so does every table of the file. So a figure goes with the version its statement
/// read, and the next page's is read again only when the version its rows read differs.
///
/// The count is checked against the version the page's rows were read at, so it is always
/// the count of what they saw (or newer). The estimate is read before the rows, when the
/// version is the one this connection's previous statement read: a commit by another
/// connection since then shows from the page's rows on, so an estimate may lag one page
/// behind, as PostgreSQL's estimates lag a few seconds.
///
/// Kept only for a table whose rows are in the file: never a view (it may read the clock or
/// `random()`), a virtual table (its rows may come from elsewhere) or a table of an attached
/// or temporary schema, and never while this connection is writing (a table dropped and made
/// again in one transaction changes no row count).
extension SQLiteAdaptor {
  /// What the figures are checked against.
  struct FileVersion: Equatable {
    /// The pager's data version of the main schema.
    var pager: UInt32
    /// The rows this connection has changed since it opened.
    var ownChanges: Int64
  }

  /// A figure and the version it was read at.
  struct KeptFigure {
    var version: FileVersion
    var value: Int?
  }

  /// The figures kept on one connection (under its lock).
  struct KeptFigures {
    /// Counts of whole tables, by their statement.
    var counts: [String: KeptFigure] = [:]
    /// Estimates, by table.
    var estimates: [String: KeptFigure] = [:]
    /// Whether a table's figures may be kept, found when one is first about to be reused.
    var plainTables: [String: Bool] = [:]
    /// How many figures were answered from those kept (for tests).
    var answers = 0
  }

  /// The most figures of each kind kept per connection; past it, those kept are forgotten.
  static let maximumKeptFigures = 256

  /// Runs `statement` as ``query(_:columns:row:)`` does, then counts `entity`'s rows with
  /// `count`, unless the count made at the version the rows were read at is kept.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], countingRowsOf entity: Entity,
    with count: SQLStatement, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    try query(statement, columns: columns, row: row)
    let version = count.bindings.isEmpty && entity.keepsFigures ? fileVersion() : nil
    if let version, let kept = try reusable(kept.counts[count.sql], of: entity, at: version) {
      return kept.value
    }
    var counted: Int?
    try query(count, columns: [nil]) { counted = $0.first?.intValue }
    if version != nil, let counted, let made = fileVersion() {
      keep(counted, at: made, in: \.counts, as: count.sql)
    }
    return counted
  }

  /// The estimate read by `read`, unless the one read at this connection's current version is
  /// kept (see above: it may lag one page behind another connection's commit).
  func keptEstimate(of entity: Entity, read: () throws -> Int?) throws -> Int? {
    connection.lock.lock()
    defer { connection.lock.unlock() }
    guard entity.keepsFigures, let version = fileVersion() else { return try read() }
    if let kept = try reusable(kept.estimates[entity.externalName], of: entity, at: version) {
      return kept.value
    }
    let estimate = try read()
    if let made = fileVersion() {
      keep(estimate, at: made, in: \.estimates, as: entity.externalName)
    }
    return estimate
  }

  /// The file's version as this connection last read it; nil while it writes.
  private func fileVersion() -> FileVersion? {
    guard sqlite3_txn_state(connection.handle, "main") != SQLITE_TXN_WRITE else { return nil }
    var version: UInt32 = 0
    guard
      sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        == SQLITE_OK
    else { return nil }
    return FileVersion(pager: version, ownChanges: sqlite3_total_changes64(connection.handle))
  }

  /// `figure` when it was read at `version` and `entity` is a table of the file (asked once
  /// per table, when a figure is first about to be reused); else nil.
  private func reusable(_ figure: KeptFigure?, of entity: Entity, at version: FileVersion)
    throws -> KeptFigure?
  {
    guard let figure, figure.version == version else { return nil }
    let name = entity.externalName
    if kept.plainTables[name] == nil {
      var plain = false
      try query(
        SQLStatement(
          raw:
            "SELECT sql NOT LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_master WHERE type = 'table' AND name = ?",
          [.string(name)]), columns: [nil]
      ) { plain = $0.first?.intValue == 1 }
      kept.plainTables[name] = plain
    }
    guard kept.plainTables[name] == true, fileVersion() == version else { return nil }
    kept.answers += 1
    return figure
  }

  private func keep(
    _ value: Int?, at version: FileVersion,
    in figures: WritableKeyPath<KeptFigures, [String: KeptFigure]>, as key: String
  ) {
    if kept[keyPath: figures].count >= Self.maximumKeptFigures {
      kept[keyPath: figures].removeAll()
    }
    kept[keyPath: figures][key] = KeptFigure(version: version, value: value)
  }
}

extension Entity {
  /// Whether the figures of this entity's table may be kept on an SQLite connection, as far
  /// as the model tells (a virtual table is asked of the file).
  fileprivate var keepsFigures: Bool { !isView && schema == nil }
}
