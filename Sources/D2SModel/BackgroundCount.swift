import Dispatch
import Synchronization

/// A count running beside the command that started it, on the database's second
/// connection: a list page waits for it only so long, then shows what it reached.
public final class BackgroundCount: Sendable {
  private struct State {
    var reached = 0
    var total: Int?
    /// The share of the table the count has walked (by its primary key), when known.
    var progress: Double?
  }
  private let started = ContinuousClock.now
  private let state = Mutex(State())
  private let cancelled = Atomic<Bool>(false)
  private let ended = DispatchSemaphore(value: 0)

  init() {}

  /// The rows counted so far.
  public var reached: Int { state.withLock { $0.reached } }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Waits at most `timeout` for the count to end. Returns the total when it ended, else
  /// nil (the count goes on until ``cancel()``).
  public func wait(upTo timeout: Duration) -> Int? {
    // A budget too long to count waits without limit (Dispatch saturates the sum too).
    if ended.wait(timeout: .now() + .nanoseconds(timeout.saturatedNanoseconds)) == .success {
      ended.signal()  // Later waits return at once too.
    }
    return state.withLock { $0.total }
  }

  /// Stops the count (its running statement is interrupted).
  public func cancel() { cancelled.store(true, ordering: .relaxed) }

  func add(_ rows: Int) { state.withLock { $0.reached += rows } }

  /// Records that the count has walked `share` (0…1) of the table.
  func progressed(_ share: Double) { state.withLock { $0.progress = min(1, max(0, share)) } }

  /// How much longer the count should take, from the share of the table walked so far and
  /// the time that took; nil while nothing is known.
  public var remaining: Duration? {
    guard let share = state.withLock({ $0.progress }), share > 0 else { return nil }
    let elapsed = started.duration(to: .now)
    return elapsed * ((1 - share) / share)
  }

  /// Ends the count with its total, or with none when it failed or was stopped.
  func end(total: Int?) {
    state.withLock { $0.total = total }
    ended.signal()
  }
}
