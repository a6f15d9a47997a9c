import Synchronization

/// How often each rule won and was evaluated while recording is on (`coverage`).
///
/// Off by default, so lookups pay one atomic load for it; ``start()`` turns it on.
public final class RuleCoverageCounter: Sendable {
  /// A rule's identity across rebuilds of its model's indexes.
  struct RuleID: Hashable {
    let origin: RuleOrigin
    let id: Int
    init(_ numbered: NumberedRule) {
      origin = numbered.origin
      id = numbered.id
    }
  }

  /// The counts of one rule.
  public struct Counts: Sendable, Equatable {
    /// How often the rule answered a look-up (from the cache or not).
    public var won = 0
    /// How often its predicate was evaluated.
    public var evaluated = 0
  }

  private let recording = Atomic<Bool>(false)
  private let counts = Mutex<[RuleID: Counts]>([:])

  /// Whether counting is on.
  public var isRecording: Bool { recording.load(ordering: .relaxed) }

  /// Turns counting on (counts so far are kept).
  public func start() { recording.store(true, ordering: .relaxed) }

  /// Forgets every count.
  public func reset() { counts.withLock { $0 = [:] } }

  /// The counts of `numbered`.
  public func counts(of numbered: NumberedRule) -> Counts {
    counts.withLock { $0[RuleID(numbered)] ?? Counts() }
  }

  func recordWin(_ resolution: RuleResolution) {
    guard isRecording, case .rule(let numbered) = resolution.source else { return }
    counts.withLock { $0[RuleID(numbered), default: Counts()].won += 1 }
  }

  func recordEvaluation(_ numbered: NumberedRule) {
    guard isRecording else { return }
    counts.withLock { $0[RuleID(numbered), default: Counts()].evaluated += 1 }
  }
}
