import EnvKeys
import Qualifiers

/// The rules that assign one key, in rank order, with an equality index.
///
/// Rank: higher priority first, then higher complexity, then the rule added later. When
/// rules start with an equality test on one key path (`propertyKey = 'p1' AND …`), they are
/// bucketed by the tested value, so a lookup reads that key path once and only evaluates the
/// rules of its bucket plus the unindexed ones: the cost does not grow with the number of
/// such rules.
final class KeyCandidates: Sendable {
  struct Candidate: Sendable {
    let numbered: NumberedRule
    let rank: Int
    var rule: Rule { numbered.rule }
  }

  /// Every candidate in rank order (what `explain` walks).
  let ranked: [Candidate]
  /// The key path the index tests, if any rule is indexed.
  let discriminator: KVCPath?
  let unindexed: [Candidate]
  let buckets: ProbeTable<ValueComparison.IndexKey, [Candidate]>
  /// The rank of the best indexed candidate.
  let bestIndexedRank: Int

  init(_ rules: [NumberedRule]) {
    let sorted = rules.sorted { a, b in
      if a.rule.priority != b.rule.priority { return a.rule.priority > b.rule.priority }
      if a.rule.complexity != b.rule.complexity { return a.rule.complexity > b.rule.complexity }
      return a.id > b.id
    }
    let ranked = sorted.enumerated().map { Candidate(numbered: $0.element, rank: $0.offset) }
    self.ranked = ranked

    // The most common key path among leading equality tests becomes the discriminator.
    var counts = PathCounts()
    for candidate in ranked {
      if let (path, _) = KeyCandidates.leadingEquality(candidate.rule.predicate) {
        counts.add(path)
      }
    }
    let discriminator = counts.all.max { a, b in
      a.count != b.count ? a.count < b.count : a.path.description > b.path.description
    }?.path
    self.discriminator = discriminator

    var unindexed: [Candidate] = []
    // Each tested value's bucket, grown in place (a table of positions in `groups`).
    var groupOf = ProbeTable<ValueComparison.IndexKey, Int>()
    var groups: [(key: ValueComparison.IndexKey, candidates: [Candidate])] = []
    var best = Int.max
    for candidate in ranked {
      if let discriminator,
        let (path, key) = KeyCandidates.leadingEquality(candidate.rule.predicate),
        path == discriminator
      {
        if let group = groupOf[key] {
          groups[group].candidates.append(candidate)
        } else {
          groupOf.set(groups.count, for: key)
          groups.append((key, [candidate]))
        }
        best = min(best, candidate.rank)
      } else {
        unindexed.append(candidate)
      }
    }
    var buckets = ProbeTable<ValueComparison.IndexKey, [Candidate]>()
    for group in groups { buckets.set(group.candidates, for: group.key) }
    self.unindexed = unindexed
    self.buckets = buckets
    self.bestIndexedRank = best
  }

  /// `path = constant` as the predicate or its first conjunct, with an indexable constant.
  static func leadingEquality(_ predicate: Qualifier) -> (KVCPath, ValueComparison.IndexKey)? {
    var first = predicate
    if case .and(let parts) = predicate, let head = parts.first { first = head }
    guard case .comparison(let path, .equal, let value) = first,
      let key = ValueComparison.indexKey(ComparableValue(value))
    else { return nil }
    return (path, key)
  }

  /// Walks the candidates that can match, in rank order, reading the discriminator (through
  /// `readDiscriminator`) only when the walk reaches the first indexed rule — exactly when a
  /// full scan would first read it. Stops when `visit` returns true. A value with no index key
  /// (a list, which an equality matches when any element does) walks every candidate left.
  func walk(
    readDiscriminator: (KVCPath) throws -> Any?, visit: (Candidate) throws -> Bool
  ) throws {
    guard let discriminator else {
      for candidate in ranked where try visit(candidate) { return }
      return
    }
    var i = 0
    var bucket: [Candidate]? = nil
    var j = 0
    while true {
      let next = i < unindexed.count ? unindexed[i] : nil
      if bucket == nil, bestIndexedRank != Int.max, next.map({ bestIndexedRank < $0.rank }) ?? true
      {
        let value = try readDiscriminator(discriminator)
        guard let key = ValueComparison.indexKey(value) else {
          // Values no bucket names (a to-many path's list, where `=` means any of them): the
          // rules from the first indexed one on are each evaluated, as a full scan would.
          for candidate in ranked[bestIndexedRank...] where try visit(candidate) { return }
          return
        }
        bucket = buckets[key] ?? []
      }
      let indexed = bucket.flatMap { j < $0.count ? $0[j] : nil }
      let candidate: Candidate
      switch (next, indexed) {
      case (nil, nil): return
      case (let u?, nil):
        candidate = u
        i += 1
      case (nil, let b?):
        candidate = b
        j += 1
      case (let u?, let b?):
        if u.rank < b.rank {
          candidate = u
          i += 1
        } else {
          candidate = b
          j += 1
        }
      }
      if try visit(candidate) { return }
    }
  }
}

/// How often each key path is tested, in the order the paths first appear.
struct PathCounts {
  private(set) var all: [(path: KVCPath, count: Int)] = []
  private var positions = ProbeTable<KVCPath, Int>()

  mutating func add(_ path: KVCPath) {
    if let position = positions[path] {
      all[position].count += 1
    } else {
      positions.set(all.count, for: path)
      all.append((path, 1))
    }
  }
}
