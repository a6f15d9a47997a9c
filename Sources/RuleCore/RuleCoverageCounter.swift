import Synchronization

/// How often one rule won and was evaluated: atomics, so counting costs a few nanoseconds.
final class RuleCounter: Sendable {
  let won = Atomic<Int>(0)
  let evaluated = Atomic<Int>(0)
}

/// How often each rule won and was evaluated while recording is on (`coverage`).
///
/// Off by default, so lookups pay one atomic load for it; ``start()`` turns it on. The counts
/// live with the rules (each model keeps one counter per rule), so counting takes no lock.
public final class RuleCoverageCounter: Sendable {
  /// The counts of one rule.
  public struct Counts: Sendable, Equatable {
    /// How often the rule answered a look-up (from the cache or not).
    public var won = 0
    /// How often its predicate was evaluated.
    public var evaluated = 0
  }

  private let recording = Atomic<Bool>(false)

  /// Whether counting is on.
  public var isRecording: Bool { recording.load(ordering: .relaxed) }

  /// Turns counting on (counts so far are kept).
  public func start() { recording.store(true, ordering: .relaxed) }

  /// The counts of `numbered` (a rule as its model lists it).
  public func counts(of numbered: NumberedRule) -> Counts {
    Counts(
      won: numbered.counter.won.load(ordering: .relaxed),
      evaluated: numbered.counter.evaluated.load(ordering: .relaxed))
  }

  func recordWin(_ resolution: RuleResolution) {
    guard isRecording, case .rule(let numbered) = resolution.source else { return }
    numbered.counter.won.wrappingAdd(1, ordering: .relaxed)
  }

  func recordEvaluation(_ numbered: NumberedRule) {
    guard isRecording else { return }
    numbered.counter.evaluated.wrappingAdd(1, ordering: .relaxed)
  }
}
