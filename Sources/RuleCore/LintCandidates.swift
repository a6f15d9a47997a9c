import EnvKeys
import Qualifiers

/// The rules of one key that `lint` compares a rule with, in their order: only those that
/// could cause a finding about it. A duplicate or a rule that covers it has conditions that
/// are all among its own (found through its conditions' texts); an ambiguous one has its
/// priority and complexity, and, where it tests a key path for one value (`entity.name =
/// 'Film'`), tests it for that value or not at all (any other value excludes it).
struct LintCandidates {
  /// Each rule's conditions, as text (nil: not a conjunction of comparisons).
  private let texts: [Set<String>?]
  /// Each rule's rank.
  private var ranks: [Rank] = []
  /// Rules by the text of each of their conditions.
  private var byCondition: [String: [Int]] = [:]
  /// Rules that always match (`*true*`): among every rule's conditions.
  private var unconditional: [Int] = []
  /// A rule's first test of a key path for one value: its path and value.
  private var equality: [(path: KVCPath, value: ValueComparison.IndexKey)?] = []
  /// Rules by rank (priority, complexity).
  private var byRank: [Rank: [Int]] = [:]
  /// Rules of a rank by a path and the one value they test it for.
  private var byEquality: [EqualityKey: [Int]] = [:]
  /// Rules of a rank that test a path for one value, by rank and path.
  private var testing: [PathKey: Set<Int>] = [:]
  /// Rules of a rank that do not, by rank and path (worked out once: there are few paths).
  private var untested: [PathKey: [Int]] = [:]

  private struct Rank: Hashable {
    let priority: Rule.Priority
    let complexity: Int
  }
  private struct PathKey: Hashable {
    let rank: Rank
    let path: KVCPath
  }
  private struct EqualityKey: Hashable {
    let rank: Rank
    let path: KVCPath
    let value: ValueComparison.IndexKey
  }

  init(_ rules: [NumberedRule], parts: [[Qualifier]?], texts: [Set<String>?]) {
    self.texts = texts
    for (index, rule) in rules.enumerated() {
      let rank = Rank(priority: rule.rule.priority, complexity: rule.rule.complexity)
      ranks.append(rank)
      byRank[rank, default: []].append(index)
      if let text = texts[index] {
        if text.isEmpty { unconditional.append(index) }
        for condition in text { byCondition[condition, default: []].append(index) }
      }
      var first: (path: KVCPath, value: ValueComparison.IndexKey)?
      for case .comparison(let path, .equal, let value) in parts[index] ?? []
      where path.components.count <= 2 {
        guard let key = ValueComparison.indexKey(ComparableValue(value)) else { continue }
        if first == nil { first = (path, key) }
        byEquality[EqualityKey(rank: rank, path: path, value: key), default: []].append(index)
        testing[PathKey(rank: rank, path: path), default: []].insert(index)
      }
      equality.append(first)
    }
    for (key, tested) in testing {
      untested[key] = (byRank[key.rank] ?? []).filter { !tested.contains($0) }
    }
  }

  /// The rules to compare rule `index` with, in order.
  func of(_ index: Int) -> [Int] {
    var found = Set(unconditional)
    for condition in texts[index] ?? [] { found.formUnion(byCondition[condition] ?? []) }
    found.formUnion(sameRank(index))
    return found.sorted()
  }

  /// The rules of rule `index`'s rank that its first one-value test does not exclude.
  private func sameRank(_ index: Int) -> [Int] {
    let rank = ranks[index]
    guard let (path, value) = equality[index] else { return byRank[rank] ?? [] }
    let same = byEquality[EqualityKey(rank: rank, path: path, value: value)] ?? []
    return same + (untested[PathKey(rank: rank, path: path)] ?? [])
  }
}
