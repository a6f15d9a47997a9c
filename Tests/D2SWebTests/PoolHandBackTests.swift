import D2SModel
import D2STesting
import D2SWeb
import Dispatch
import Foundation
import SQLiteAdaptor
import Synchronization
import Testing

/// A pooled connection is given back as soon as its work is done, on its own thread: the next
/// request waiting for it does not wait until the request that used it runs again (under load,
/// a task waits its turn on a busy executor for long after its statements ended).
@Suite struct PoolHandBackTests {
  /// Runs tasks' jobs on Dispatch's global queue, or holds them while closed.
  final class Gate: TaskExecutor, Sendable {
    private let state = Mutex<(closed: Bool, held: [UnownedJob])>((false, []))

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let run = state.withLock { state -> Bool in
        if state.closed { state.held.append(job) }
        return !state.closed
      }
      if run { start(job) }
    }

    private func start(_ job: UnownedJob) {
      let executor = asUnownedTaskExecutor()
      DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }

    /// Holds the jobs enqueued from now on.
    func close() { state.withLock { $0.closed = true } }

    /// Whether jobs are held.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Runs the jobs held, and those enqueued from now on.
    func open() {
      let held = state.withLock { state in
        defer { state = (false, []) }
        return state.held
      }
      for job in held { start(job) }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func theNextRequestGetsTheConnectionWhileTheFirstWaitsItsTurn() async throws {
    let path = try SakilaSQLite.copy()
    let model = try Database(adaptor: try SQLiteAdaptor(path: path)).model
    let pool = DatabasePool(size: 1, statementTimeout: .seconds(30), model: model) {
      try SQLiteAdaptor(path: path)
    }
    let gate = Gate()
    // The first request's task runs on the gate, closed while its statements run: once they
    // are done, the task cannot go on until the gate opens.
    let first = Task(executorPreference: gate) {
      try await pool.withDatabase { database in
        gate.close()
        return try database.count(FetchSpecification(entityName: "Language"))
      }
    }
    // Bounded: 10 s at most.
    for _ in 0..<1_000 where !gate.isClosed { try await Task.sleep(for: .milliseconds(10)) }
    #expect(gate.isClosed, "the first request's statements ran")
    // The second asks for the only connection; it must not need the first task to run.
    let second = Task {
      try await pool.withDatabase { database in
        try database.count(FetchSpecification(entityName: "Category"))
      }
    }
    let answered = Atomic<Bool>(false)
    let watch = Task {
      _ = try? await second.value
      answered.store(true, ordering: .relaxed)
    }
    // Bounded: 10 s at most.
    for _ in 0..<1_000 where !answered.load(ordering: .relaxed) {
      try await Task.sleep(for: .milliseconds(10))
    }
    let before = answered.load(ordering: .relaxed)
    gate.open()
    #expect(before, "the second request waited for the first one's task")
    #expect(try await second.value == 16)
    #expect(try await first.value == 6)
    await watch.value
  }
}
