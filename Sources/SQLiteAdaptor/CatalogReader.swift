import D2SModel
import EnvKeys
import Logging
import Synchronization

/// Reads a file's catalog after its open: on the connection that opened it when no statement
/// is using that (a start that goes on to list a table), else on a read-only connection of
/// its own, opened when first needed and kept. One read at a time; never stopped by Ctrl-C,
/// which would leave the model without columns.
final class CatalogReader: @unchecked Sendable {
  private let location: SQLiteLocation
  private let lock = Mutex<Void>(())
  // Guarded by `lock`.
  private weak var opener: SQLiteAdaptor?
  private var own: SQLiteAdaptor?
  private var tablesFailed: ContinuousClock.Instant?

  /// After the tables could not be read, how long until they are tried again.
  static let retryAfter = Duration.seconds(1)

  init(_ opener: SQLiteAdaptor) {
    var readOnly = opener.location
    readOnly.readOnly = true
    self.location = readOnly
    self.opener = opener
  }

  /// The tables and views, views without columns; nil when they cannot be read now (a lock
  /// held past the busy timeout), and without trying again for ``retryAfter``: every ask of an
  /// entity's attributes in between would wait for the lock again.
  func tables() -> [Catalog.Table]? {
    lock.withLock { _ in
      if let failed = tablesFailed, ContinuousClock.now < failed + Self.retryAfter { return nil }
      let tables = readLocked("the tables' columns") {
        try SQLiteAdaptor.readTables(on: $0, viewsLater: true)
      }
      tablesFailed = tables == nil ? ContinuousClock.now : nil
      return tables
    }
  }

  /// What `body` reads on one of the two connections; nil when it cannot read it (a view
  /// SQLite can no longer compile, a file that cannot be opened again), said as a warning on
  /// the SQL logger: the model goes on without `what`.
  func read<T: Sendable>(_ what: String, _ body: (SQLiteAdaptor) throws -> T) -> T? {
    lock.withLock { _ in readLocked(what, body) }
  }

  private func readLocked<T: Sendable>(_ what: String, _ body: (SQLiteAdaptor) throws -> T) -> T? {
    do {
      // Never waits for the opener's connection: its holder may be waiting for this read
      // (a model's details first asked for inside another statement's rows).
      // Nor reads inside its write transaction, whose changes a rollback may undo.
      if let opener, opener.connection.lock.try() {
        defer { opener.connection.lock.unlock() }
        if !opener.isWriting {
          return try opener.connection.withoutInterruption { try body(opener) }
        }
      }
      let own = try self.own ?? SQLiteAdaptor(location: location)
      self.own = own
      return try own.connection.withoutInterruption { try body(own) }
    } catch {
      DependencyValues.current.sqlLogger.warning(
        "\(location.path): cannot read \(what): \(error)")
      return nil
    }
  }
}
