import Components
import D2SModel
import Dispatch
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import ServiceLifecycle
import Synchronization

/// The server's readers: up to `size` connections to the database, each on a thread of its
/// own, so that a blocking database call never runs on the event loop or Swift's cooperative
/// pool. A request's work waits (without blocking a thread) for a free connection and runs on
/// its thread; the request giving a connection back runs the next waiting work on it at once.
/// Connections share the model read at start.
///
/// No client address holds more than ``sharePerClient`` connections at once: its further
/// requests wait (they are never refused for that alone), so that slow requests from one
/// address leave connections for everyone else's.
public final class DatabasePool: Sendable {
  /// Opens one more connection.
  public typealias Opener = @Sendable () throws -> any DatabaseAdaptor

  /// A request's work, waiting for a connection: run on the connection's thread by
  /// whoever hands the connection over (the request that gave it back, on its own thread),
  /// so that a busy pool goes from one request's statements to the next without a hop.
  private struct Job: Sendable {
    let client: String?
    /// Whether the request's client is still there (nil: a request made in process).
    let presence: ClientPresence?
    /// Runs the request's work on `reader`'s thread: whether the connection failed (it is then
    /// closed, not handed on), and what answers the request, called once the connection is
    /// given back (the request's next call to the pool then finds it free).
    let run: @Sendable (Reader) -> (failed: Bool, answer: @Sendable () -> Void)
    /// Answers the request with the error of opening a connection for it.
    let fail: @Sendable (any Error) -> Void
  }

  /// What a job is handed: an idle connection, or the right to open one.
  private enum Lease {
    case reader(Reader)
    case slot
  }

  private struct State {
    var idle: [Reader] = []
    var opened = 0
    var waiting: [Job] = []
    /// Whether the server is stopping: a connection given back with no work waiting closes.
    var closing = false
    /// The connections each client holds now.
    var held: [String: Int] = [:]

    func mayTake(_ client: String?, share: Int) -> Bool {
      client.map { (held[$0] ?? 0) < share } ?? true
    }

    mutating func take(_ client: String?) {
      if let client { held[client, default: 0] += 1 }
    }

    mutating func give(_ client: String?) {
      guard let client, let count = held[client] else { return }
      held[client] = count > 1 ? count - 1 : nil
    }

    /// An idle connection, or the right to open one when fewer than `size` are open, for
    /// `client` if it holds less than its share.
    mutating func lease(_ client: String?, share: Int, size: Int) -> Lease? {
      guard mayTake(client, share: share) else { return nil }
      if let reader = idle.popLast() {
        take(client)
        return .reader(reader)
      }
      guard opened < size else { return nil }
      opened += 1
      take(client)
      return .slot
    }

    /// The first waiting job whose client may take one more connection, removed from the
    /// queue.
    mutating func nextJob(share: Int) -> Job? {
      guard let index = waiting.firstIndex(where: { mayTake($0.client, share: share) }) else {
        return nil
      }
      let job = waiting.remove(at: index)
      take(job.client)
      return job
    }
  }

  private let state = Mutex(State())
  private let open: Opener
  private let model: Model
  /// The most connections open at once.
  public let size: Int
  /// How long one request's statements may run before they are stopped, unless the request
  /// gives a timeout of its own.
  public let statementTimeout: Duration
  /// The most connections one client address holds at once.
  public let sharePerClient: Int

  /// A pool opening connections with `open`, for a database whose model is `model`; one
  /// client holds at most `sharePerClient` of them at once (default: all but one).
  public init(
    size: Int, statementTimeout: Duration, model: Model, sharePerClient: Int? = nil,
    open: @escaping Opener
  ) {
    self.size = max(1, size)
    self.statementTimeout = statementTimeout
    self.sharePerClient = max(1, min(sharePerClient ?? (self.size - 1), self.size))
    self.model = model
    self.open = open
  }

  /// Runs `body` with a connection of its own, on that connection's thread, with the caller's
  /// dependencies (``EnvKeys/DependencyValues/current``, carried across); its statements
  /// stop (``DatabaseError/Code/interrupted``) once `timeout` (by default the pool's statement
  /// timeout) has passed. `client`, the address the request came from, holds no more than its
  /// share of the connections. A connection that fails is closed, not given to the next
  /// request. When the request's client has left (``ClientPresence``), `body` is not begun
  /// and its statements stop (``DatabaseError/Code/interrupted``).
  ///
  /// - Throws: what `body` throws, or the error of opening a connection.
  @discardableResult
  public func withDatabase<T: Sendable>(
    client: String? = nil, timeout: Duration? = nil,
    _ body: @escaping @Sendable (Database) throws -> T
  ) async throws -> T {
    let dependencies = DependencyValues.current
    let timeout = timeout ?? statementTimeout
    let presence = ClientPresence.current
    return try await withCheckedThrowingContinuation { continuation in
      let job = Job(
        client: client, presence: presence,
        run: { reader in
          reader.startDeadline(after: timeout)
          presence?.watch { reader.stop() }
          let result = Result {
            try Reader.$current.withValue(reader) {
              try DependencyValues.$current.withValue(dependencies) {
                try reader.database.readingAnswered { try body(reader.database) }
              }
            }
          }
          presence?.stopWatching()
          reader.clearDeadline()
          var failed = false
          if case .failure(let error as DatabaseError) = result, error.code == .connection {
            failed = true
          }
          return (failed, { continuation.resume(with: result) })
        },
        fail: { continuation.resume(throwing: $0) })
      let (share, size) = (sharePerClient, self.size)
      let lease: Lease? = state.withLock { state in
        if let lease = state.lease(client, share: share, size: size) { return lease }
        state.waiting.append(job)
        return nil
      }
      if let lease { start(job, with: lease) }
    }
  }

  /// Runs `job` with what it was handed: on the idle connection's thread, or on a new
  /// connection opened for it.
  private func start(_ job: Job, with lease: Lease) {
    switch lease {
    case .reader(let reader):
      reader.queue.async { self.work(job, on: reader) }
    case .slot:
      // Connecting can block for long: on a thread of its own.
      let (open, model) = (self.open, self.model)
      DispatchQueue.global().async {
        do {
          let reader = Reader(database: Database(adaptor: try open(), model: model))
          reader.queue.async { self.work(job, on: reader) }
        } catch {
          self.releaseSlot(client: job.client)
          job.fail(error)
        }
      }
    }
  }

  /// Runs `job` on `reader`'s thread, then the jobs waiting for a connection, one after the
  /// other, until none is left (or the connection fails): the connection goes idle only then.
  private func work(_ job: Job, on reader: Reader) {
    let share = sharePerClient
    var next: Job? = job
    while let job = next {
      let (failed, answer) = job.presence?.isGone == true ? Self.unread(job) : job.run(reader)
      if failed {
        releaseSlot(client: job.client)
        answer()
        return
      }
      next = state.withLock { state in
        state.give(job.client)
        if let waiting = state.nextJob(share: share) { return waiting }
        if state.closing {
          state.opened -= 1
        } else {
          state.idle.append(reader)
        }
        return nil
      }
      answer()
    }
  }

  /// The answer of a request whose client has left, its work not begun: nobody reads it.
  private static func unread(_ job: Job) -> (failed: Bool, answer: @Sendable () -> Void) {
    (false, { job.fail(DatabaseError(.interrupted, "the client left")) })
  }

  /// Gives up a connection's place (it failed, or could not be opened): the next waiting
  /// job gets the place and opens a connection of its own.
  private func releaseSlot(client: String?) {
    let share = sharePerClient
    let job: Job? = state.withLock { state in
      state.give(client)
      if let job = state.nextJob(share: share) { return job }
      state.opened -= 1
      return nil
    }
    if let job { start(job, with: .slot) }
  }
}

extension DatabasePool {
  /// Closes the idle connections (when the server stops: those in use close once no work
  /// waits for them). A request made after still gets a connection, opened for it.
  public func closeIdle() {
    let idle = state.withLock { state in
      defer {
        state.opened -= state.idle.count
        state.idle.removeAll()
        state.closing = true
      }
      return state.idle
    }
    _ = idle
  }
}

/// The pool as a service of the server's group: on a graceful shutdown (SIGTERM), once the
/// requests in flight are answered, its idle connections are closed.
struct PoolService: Service {
  let pool: DatabasePool

  func run() async throws {
    try? await gracefulShutdown()
    pool.closeIdle()
  }
}

/// One pooled connection and the thread its statements run on.
final class Reader: Sendable {
  let database: Database
  let queue = DispatchQueue(label: "d2s-serve.reader")
  /// A number no other reader of this process has: it names what is kept for this
  /// connection alone (an address may serve another connection later).
  let serial = Reader.count.add(1, ordering: .relaxed).newValue
  private static let count = Atomic(0)
  /// The session users this connection read, kept while the database is unchanged.
  let keptUsers = KeptUsers()
  /// The pages a connection renders with (``WebApplication/pageApplication(for:)``).
  struct KeptPages: Sendable {
    /// The stamp of the application's pages they were taken from.
    let stamp: Int
    let pages: PageApplication
  }
  /// This connection's pages: taken only by the request holding the connection, so never
  /// waited for.
  let keptPages = Mutex<KeptPages?>(nil)
  /// When the running request's statements must stop.
  private let signal = StopSignal()

  init(database: Database) {
    self.database = database
    // The signal alone, held strongly: the adaptor asks for every row (PostgreSQL) and every
    // 1,000 steps (SQLite), and an unowned reader was retained and released at each call.
    let signal = signal
    database.adaptor.interrupt { signal.isDue }
  }

  /// Stops the running request's statements (its client left).
  func stop() { signal.stopped.store(true, ordering: .relaxed) }

  /// How much the running request's deadline was moved for waits on its client.
  private let extended = Atomic<UInt64>(0)
  /// The most a request's deadline is moved for waits on its client: a client that takes a
  /// chunk just before its patience runs out cannot hold a connection for ever.
  static let maximumExtension: UInt64 = 10 * 60 * 1_000_000_000

  /// Starts the running request's time: its statements stop `timeout` from now.
  func startDeadline(after timeout: Duration) {
    signal.stopped.store(false, ordering: .relaxed)
    extended.store(0, ordering: .relaxed)
    // Saturated: a timeout too long to count is a deadline never reached (0 means none).
    let now = DispatchTime.now().uptimeNanoseconds
    let (end, overflow) = now.addingReportingOverflow(UInt64(timeout.saturatedNanoseconds))
    signal.deadline.store(overflow ? .max - 1 : end, ordering: .relaxed)
  }

  func clearDeadline() {
    signal.deadline.store(0, ordering: .relaxed)
    signal.stopped.store(false, ordering: .relaxed)
  }

  /// Moves the running request's deadline `nanoseconds` later (none set: nothing), up to
  /// ``maximumExtension`` in all: the time a streamed page waited for its client to take a
  /// chunk is not the database's time.
  func extendDeadline(by nanoseconds: UInt64) {
    guard signal.deadline.load(ordering: .relaxed) != 0 else { return }
    let used = extended.load(ordering: .relaxed)
    let allowed = min(nanoseconds, Self.maximumExtension - min(used, Self.maximumExtension))
    guard allowed > 0 else { return }
    extended.wrappingAdd(allowed, ordering: .relaxed)
    // Saturated, as the deadline itself: one near the end of time stays there, never wraps
    // round to one already past.
    var current = signal.deadline.load(ordering: .relaxed)
    while current != 0 {
      let (later, overflow) = current.addingReportingOverflow(allowed)
      let (exchanged, found) = signal.deadline.compareExchange(
        expected: current, desired: overflow ? .max - 1 : min(later, .max - 1),
        ordering: .relaxed)
      if exchanged { break }
      current = found
    }
  }

  /// The connection the running request's work is on (set on its queue while it runs).
  @TaskLocal static var current: Reader?
}

/// When a pooled connection's running request must stop: its deadline, and whether its client
/// left.
final class StopSignal: Sendable {
  /// The deadline (uptime nanoseconds; 0: never).
  let deadline = Atomic<UInt64>(0)
  /// Whether the request's statements must stop now (its client left).
  let stopped = Atomic(false)

  /// Whether the running request's time is up.
  var isPastDeadline: Bool {
    let limit = deadline.load(ordering: .relaxed)
    return limit != 0 && DispatchTime.now().uptimeNanoseconds > limit
  }

  /// Whether its statements must stop: its client left, or its time is up.
  var isDue: Bool { stopped.load(ordering: .relaxed) || isPastDeadline }
}
