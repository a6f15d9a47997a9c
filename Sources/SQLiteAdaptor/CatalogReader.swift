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
  private var failed: [String: ContinuousClock.Instant] = [:]

  /// After something could not be read, how long until it is tried again.
  static let retryAfter = Duration.seconds(1)

  init(_ opener: SQLiteAdaptor) {
    var readOnly = opener.location
    readOnly.readOnly = true
    self.location = readOnly
    self.opener = opener
  }

  /// The tables and views, views without columns; nil when they cannot be read now.
  func tables() -> [Catalog.Table]? {
    read("the tables' columns") { try SQLiteAdaptor.readTables(on: $0, viewsLater: true) }
  }

  /// The columns of `view`: none for a view SQLite can no longer compile (over a table
  /// dropped since), said as a warning; nil when they cannot be read now.
  func columns(ofView view: String) -> [Catalog.Column]? {
    let what = "the columns of view \(view)"
    return read(what) { adaptor in
      do {
        return try SQLiteAdaptor.columns(ofView: view, on: adaptor)
      } catch let error as DatabaseError where error.code == .other {
        warn(what, error)
        return []
      }
    }
  }

  /// What `body` reads on one of the two connections; nil when it cannot read it now (a lock
  /// held past the busy timeout, a file that cannot be opened again), said as a warning on
  /// the SQL logger, and nil again without trying for ``retryAfter``: every ask of an
  /// entity's attributes in between would wait for the lock again.
  func read<T: Sendable>(_ what: String, _ body: (SQLiteAdaptor) throws -> T) -> T? {
    lock.withLock { _ in
      if let failure = failed[what], ContinuousClock.now < failure + Self.retryAfter {
        return nil
      }
      let read = readLocked(what, body)
      failed[what] = read == nil ? ContinuousClock.now : nil
      return read
    }
  }

  private func warn(_ what: String, _ error: any Error) {
    DependencyValues.current.sqlLogger.warning("\(location.path): cannot read \(what): \(error)")
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
      warn(what, error)
      return nil
    }
  }
}
