import Synchronization

/// Counts an engine's rule look-ups while recording (d2s-repl's `timing` and `trace`): how
/// often each key was asked for, which rule (or the default) answered, and how often from the
/// cache.
///
/// A look-up is one request for a key's value that the engine answers: from the cache, by a
/// rule, or with the key's default, nested look-ups (a rule reading another derived key)
/// included. A value set in the context answers without the engine and is not counted.
///
/// Off by default; then a look-up pays one relaxed atomic load for it. Counting is safe from
/// any thread.
public final class RuleLookupCounter: Sendable {
  /// How often one rule (or the default) answered one key.
  public struct Tally: Sendable, Equatable {
    /// The key's name.
    public var key: String
    /// What answered: the rule as ``NumberedRule/description`` prints it, or `default`.
    public var source: String
    /// How many look-ups it answered.
    public var count: Int
    /// How many of them came from the cache.
    public var cached: Int

    /// A tally.
    public init(key: String, source: String, count: Int, cached: Int) {
      self.key = key
      self.source = source
      self.count = count
      self.cached = cached
    }
  }

  /// A key and what answered it.
  private struct Slot: Hashable {
    let key: ObjectIdentifier
    let rule: ObjectIdentifier?
  }

  /// The counts of a slot, with what is needed to name it.
  private struct Counts {
    var key: String
    var source: ValueSource
    var count = 0
    var cached = 0
  }

  private let recording = Atomic<Bool>(false)
  private let counts = Mutex<[Slot: Counts]>([:])

  /// Whether counting is on.
  public var isRecording: Bool { recording.load(ordering: .relaxed) }

  /// Forgets earlier counts and starts counting.
  public func start() {
    counts.withLock { $0.removeAll() }
    recording.store(true, ordering: .relaxed)
  }

  /// Stops counting and returns the counts, most asked-for first (by key, then by rule).
  public func stop() -> [Tally] {
    recording.store(false, ordering: .relaxed)
    let slots = counts.withLock { counts in
      defer { counts.removeAll() }
      return Array(counts.values)
    }
    var perKey: [String: Int] = [:]
    for slot in slots { perKey[slot.key, default: 0] += slot.count }
    return
      slots
      .map { Tally(key: $0.key, source: $0.source.description, count: $0.count, cached: $0.cached) }
      .sorted {
        let (left, right) = (perKey[$0.key] ?? 0, perKey[$1.key] ?? 0)
        if left != right { return left > right }
        if $0.key != $1.key { return $0.key < $1.key }
        if $0.count != $1.count { return $0.count > $1.count }
        return $0.source < $1.source
      }
  }

  /// Counts one look-up of the key `id` (named by `name`, asked only the first time).
  func record(
    _ id: ObjectIdentifier, name: () -> String, _ resolution: RuleResolution, cached: Bool
  ) {
    let rule: ObjectIdentifier?
    switch resolution.source {
    case .rule(let numbered): rule = ObjectIdentifier(numbered)
    case .explicit, .defaultValue: rule = nil
    }
    counts.withLock { counts in
      let slot = Slot(key: id, rule: rule)
      if counts[slot] == nil { counts[slot] = Counts(key: name(), source: resolution.source) }
      counts[slot]?.count += 1
      if cached { counts[slot]?.cached += 1 }
    }
  }
}
