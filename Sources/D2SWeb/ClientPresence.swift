import Synchronization

/// Whether a connection's client is still there to read its answer: it is gone once it has
/// closed its side of the connection (the server read its end) or the connection ended.
///
/// A request whose client is gone is not begun when a pooled connection takes it, and its
/// running statements stop (``DatabasePool``): a client that sends heavy requests and leaves
/// at once would otherwise hold the database for their whole time, and every later request
/// would wait behind them. As nginx does for the requests it forwards, a client that closes
/// its sending side while still reading is taken as gone; browsers and HTTP clients do not.
final class ClientPresence: Sendable {
  private struct State {
    var gone = false
    /// What to do when the client leaves, while its request's work runs.
    var onLeave: (@Sendable () -> Void)?
  }
  private let state = Mutex(State())

  /// Whether the client has left.
  var isGone: Bool { state.withLock { $0.gone } }

  /// Records that the client has left, and does what ``watch(_:)`` was given.
  func leave() {
    // Done under the lock: once `stopWatching()` has returned, the action never runs.
    state.withLock { state in
      state.gone = true
      state.onLeave?()
      state.onLeave = nil
    }
  }

  /// Does `action` when the client leaves, at once if it has left, until ``stopWatching()``.
  func watch(_ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      if state.gone { action() } else { state.onLeave = action }
    }
  }

  /// Forgets the action ``watch(_:)`` was given.
  func stopWatching() {
    state.withLock { $0.onLeave = nil }
  }

  /// The presence of the client whose requests the current task answers (nil: a request made
  /// in process, whose caller never leaves).
  @TaskLocal static var current: ClientPresence?
}
