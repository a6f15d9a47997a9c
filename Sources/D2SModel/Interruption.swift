import Synchronization

/// A request to stop the running command, made by Ctrl-C in the interactive REPL.
///
/// Requesting is one lock-free atomic store, so a signal handler may do it. Fetches check
/// the request at every row (SQLite also while a statement runs), and the list page at every
/// row it renders; they then throw ``DatabaseError/Code/interrupted`` and the command fails
/// without changing anything.
public enum Interruption {
  private static let requested = Atomic<Bool>(false)

  /// Asks the running command to stop. Async-signal-safe once ``reset()`` has been called
  /// (which initialises the flag).
  public static func request() { requested.store(true, ordering: .relaxed) }

  /// Whether a stop was asked for since the last ``reset()``.
  public static var isRequested: Bool { requested.load(ordering: .relaxed) }

  /// Clears the request, before the next command or line.
  public static func reset() { requested.store(false, ordering: .relaxed) }

  /// Throws ``DatabaseError/Code/interrupted`` when a stop was asked for.
  public static func check() throws {
    if isRequested { throw DatabaseError(.interrupted, "interrupted") }
  }
}

/// A database connection whose running statement a request to stop can end. Each connection
/// asks its own hook (``Interruption/isRequested`` unless a test sets another), so that one
/// connection can be interrupted without disturbing others.
public protocol InterruptibleConnection: AnyObject {
  /// Whether to stop the running statement.
  var isInterrupted: @Sendable () -> Bool { get set }
}

extension InterruptibleConnection {
  /// Runs `body` with ``isInterrupted`` answering no: for the rollback after a failure and
  /// the commit after the work, which must not themselves be stopped.
  public func withoutInterruption<T>(_ body: () throws -> T) rethrows -> T {
    let saved = isInterrupted
    isInterrupted = { false }
    defer { isInterrupted = saved }
    return try body()
  }
}
