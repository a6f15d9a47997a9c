import D2SModel
import EnvKeys

#if canImport(Glibc)
  import Glibc
#endif

/// A database being opened on a thread of its own: its connection made and its catalog read
/// into a model while the caller installs plugins and parses rules, which need no database.
/// A command-line front end starts one as soon as it knows its target; ``D2SApp/open(_:)``
/// waits for it. The opening runs with the caller's ``EnvKeys/DependencyValues`` (its SQL
/// logger), and an error it meets is thrown where the database is asked for, as
/// ``D2SApp/open(_:readOnly:)`` would have thrown it.
public final class DatabaseOpening: @unchecked Sendable {
  /// The target, as given (a path, `sqlite:PATH`, or a PostgreSQL URL or conninfo string).
  public let target: String
  /// Whether the connection refuses every write.
  public let readOnly: Bool
  /// Where the database is.
  let location: DatabaseLocation
  // Written by the opening thread before it ends, read after `pthread_join` (which orders
  // the two), or written and read on the caller's thread when no thread could be started.
  private var result: Result<Database, any Error>?
  private var thread: pthread_t?
  private var joined = false

  /// Starts opening `target`.
  public init(_ target: String, readOnly: Bool = false) {
    self.target = target
    self.readOnly = readOnly
    location = DatabaseLocation(target)
    let dependencies = DependencyValues.current
    let retained = Unmanaged.passRetained(Job(opening: self, dependencies: dependencies))
    var started = pthread_t()
    let status = pthread_create(
      &started, nil,
      { raw in
        guard let raw else { return nil }
        let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
        job.run()
        return nil
      }, retained.toOpaque())
    if status == 0 {
      thread = started
    } else {
      // No thread: the database is opened when it is asked for.
      retained.release()
    }
  }

  deinit {
    guard let thread, !joined else { return }
    // The last reference may be the thread's own, dropped as it ends: it cannot join itself.
    if pthread_equal(thread, pthread_self()) != 0 {
      pthread_detach(thread)
    } else {
      pthread_join(thread, nil)
    }
  }

  /// The opened database, once the opening is done.
  ///
  /// - Throws: what connecting or reading the catalog threw.
  public func database() throws -> Database {
    if let thread, !joined {
      pthread_join(thread, nil)
      joined = true
    }
    if result == nil { result = open() }
    guard let result else { throw ApplicationError("the database \(target) was not opened") }
    return try result.get()
  }

  private func open() -> Result<Database, any Error> {
    Result { try Database(adaptor: try location.connect(readOnly: readOnly)) }
  }

  /// What the thread runs: the opening, under the caller's dependencies.
  private final class Job {
    let opening: DatabaseOpening
    let dependencies: DependencyValues

    init(opening: DatabaseOpening, dependencies: DependencyValues) {
      self.opening = opening
      self.dependencies = dependencies
    }

    func run() {
      let result = DependencyValues.$current.withValue(dependencies) { opening.open() }
      opening.result = result
    }
  }
}
