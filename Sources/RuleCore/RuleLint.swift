import EnvKeys
import Qualifiers

/// One finding of `lint`: the rule it is about, where in its text, and what is wrong.
public struct RuleLintWarning: Sendable, CustomStringConvertible {
  /// The rule the warning is about.
  public var rule: NumberedRule
  /// Where the rule was written, when it came from rule text.
  public var source: RuleSource?
  /// The line and column the warning points at (the rule's start unless a token is named).
  public var location: SourceLocation?
  /// What is wrong.
  public var message: String

  /// A warning from its parts.
  public init(
    rule: NumberedRule, source: RuleSource?, location: SourceLocation? = nil, message: String
  ) {
    self.rule = rule
    self.source = source
    self.location = location ?? source?.location
    self.message = message
  }

  /// `FILE:LINE:COL: warning: …`, or `rule N: warning: …` for a rule typed in the REPL.
  public var description: String {
    guard rule.origin == .user, let source, let file = source.file, let location else {
      return "\(rule.labelPhrase): warning: \(message)"
    }
    return "\(file):\(location): warning: \(message)"
  }

  /// The order warnings print in: by file, line and column; rules without a file last.
  package static func precedes(_ a: RuleLintWarning, _ b: RuleLintWarning) -> Bool {
    switch (a.source?.file, b.source?.file) {
    case (let fa?, let fb?) where fa != fb: return fa < fb
    case (nil, _?): return false
    case (_?, nil): return true
    default: break
    }
    let (la, lb) = (
      a.location ?? SourceLocation(line: 0, column: 0),
      b.location ?? SourceLocation(line: 0, column: 0)
    )
    if la.line != lb.line { return la.line < lb.line }
    if la.column != lb.column { return la.column < lb.column }
    return a.rule.id < b.rule.id
  }
}

extension RuleEngine {
  /// The structural findings of `lint` for `model`: rules that can never win (redundant when
  /// the winner gives the same value), ambiguous pairs and duplicates. Only predicates that
  /// are conjunctions of comparisons (or `*true*`) are judged. `stop` is asked between rules
  /// (the REPL's Ctrl-C): the findings so far are returned.
  ///
  /// Each rule is compared only with the rules that could cause a finding (``LintCandidates``):
  /// those whose conditions are among its own, and those of its rank whose equalities do not
  /// exclude its own. Comparing every pair took 70 s for 10,000 rules of one key.
  public func structuralLint(of model: RuleModel, stop: () -> Bool = { false })
    -> [RuleLintWarning]
  {
    var warnings: [RuleLintWarning] = []
    let byKey = Dictionary(grouping: model.rules, by: { $0.rule.key.id })
    for rules in byKey.values {
      let parts = rules.map { RuleEngine.conjuncts($0.rule.predicate) }
      let texts = parts.map { $0.map { Set($0.map(\.description)) } }
      let candidates = LintCandidates(rules, parts: parts, texts: texts)
      for (r, rule) in rules.enumerated() {
        if stop() { return warnings }
        guard let rParts = parts[r], let rText = texts[r] else { continue }
        for s in candidates.of(r) where s != r {
          guard let sParts = parts[s], let sText = texts[s] else { continue }
          let samePredicate = rText == sText
          if let warning = lint(
            rule, rParts, against: rules[s], sParts, samePredicate: samePredicate)
          {
            warnings.append(warning)
            break
          }
        }
      }
    }
    return warnings
  }

  /// The warning about `rule` that `other` causes, if any.
  private func lint(
    _ rule: NumberedRule, _ rParts: [Qualifier], against other: NumberedRule,
    _ sParts: [Qualifier], samePredicate: Bool
  ) -> RuleLintWarning? {
    let (r, s) = (rule.rule, other.rule)
    // Worked out only for a finding (most pairs have none).
    var source: RuleSource? { self.source(of: rule) }
    var place: String {
      other.origin == .user ? self.source(of: other).map { " (\($0))" } ?? "" : ""
    }
    if samePredicate, r.priority == s.priority, r.value == s.value {
      // Reported once, on the later rule.
      guard rule.id > other.id else { return nil }
      return RuleLintWarning(
        rule: rule, source: source,
        message:
          "\(rule.labelPhrase) duplicates \(other.labelPhrase)\(place): same condition and value")
    }
    // Only a constant always gives a value: a key path or computation can be nil, and the
    // rule is then skipped.
    let covers = sParts.allSatisfy { part in rParts.contains(part) }
    if covers, case .constant = s.value, RuleEngine.ranksHigher(other, than: rule) {
      let reason = RuleContext.rankReason(other, over: rule)
      let what = r.value == s.value ? "is redundant" : "can never win"
      return RuleLintWarning(
        rule: rule, source: source,
        message:
          "\(rule.labelPhrase) \(what): \(other.labelPhrase)\(place) matches whenever it does and ranks higher (\(reason))"
          + (r.value == s.value ? " with the same value" : ""))
    }
    guard r.priority == s.priority, r.complexity == s.complexity, r.value != s.value,
      rule.id < other.id,
      RuleEngine.canBothHold(rParts, sParts, exclusive: computations.exclusiveKeySets)
    else { return nil }
    return RuleLintWarning(
      rule: rule, source: source,
      message:
        "\(rule.labelPhrase) and \(other.labelPhrase)\(place) are ambiguous: same priority and complexity, both can match, different values; \(other.labelPhrase) silently wins (added later)"
    )
  }

  /// The comparisons of a predicate that is a conjunction of comparisons (none for
  /// `*true*`), or nil for any other predicate.
  static func conjuncts(_ predicate: Qualifier) -> [Qualifier]? {
    func isComparison(_ q: Qualifier) -> Bool {
      switch q {
      case .comparison, .keyComparison: true
      default: false
      }
    }
    switch predicate {
    case .constant(true): return []
    case .and(let parts) where parts.allSatisfy(isComparison): return parts
    case let single where isComparison(single): return [single]
    default: return nil
    }
  }

  /// Whether `a` is tried before `b` (same key, same model).
  static func ranksHigher(_ a: NumberedRule, than b: NumberedRule) -> Bool {
    if a.rule.priority != b.rule.priority { return a.rule.priority > b.rule.priority }
    if a.rule.complexity != b.rule.complexity { return a.rule.complexity > b.rule.complexity }
    return a.id > b.id
  }

  /// Whether two conjunctions can both be true: false when they test one key path (of a
  /// key, or one step from it, so that no to-many list is in between) for values no value
  /// passes both ways (`= 'a'` and `= 'b'`, `= 'a'` and `in ('b', 'c')`, `= 'a'` and `!= 'a'`,
  /// two `in` lists with no value in common, compared by value as rules compare them), or
  /// when each needs a value of a different key of one of the `exclusive` sets
  /// (`attribute.valueType = 'Date'` and `relationship.kind = 'toMany'`).
  static func canBothHold(
    _ a: [Qualifier], _ b: [Qualifier], exclusive: [Set<String>] = []
  ) -> Bool {
    for case .comparison(let path, let op, let x) in a where path.components.count <= 2 {
      for case .comparison(let other, let otherOp, let y) in b where other == path {
        if excludes(op, x, otherOp, y) { return false }
      }
    }
    let needed = Set((a + b).compactMap(needsValue))
    return !exclusive.contains { $0.intersection(needed).count > 1 }
  }

  /// Whether no value satisfies both `op x` and `otherOp y`.
  private static func excludes(
    _ op: ComparisonOperator, _ x: DatabaseValue, _ otherOp: ComparisonOperator,
    _ y: DatabaseValue
  ) -> Bool {
    // The values a side allows, as rules compare them (1 and 1.0 are one value); nil when
    // it allows a range, or a value that cannot be compared so.
    func values(_ op: ComparisonOperator, _ value: DatabaseValue) -> Set<ValueComparison.IndexKey>?
    {
      let items: [DatabaseValue]
      switch (op, value) {
      case (.equal, _), (.notEqual, _): items = [value]
      case (.in, .list(let list)): items = list
      default: return nil
      }
      var keys: Set<ValueComparison.IndexKey> = []
      for item in items {
        guard let key = ValueComparison.indexKey(ComparableValue(item)) else { return nil }
        keys.insert(key)
      }
      return keys
    }
    guard let left = values(op, x), let right = values(otherOp, y) else { return false }
    switch (op == .notEqual, otherOp == .notEqual) {
    case (false, false): return left.isDisjoint(with: right)
    case (false, true): return left == right && left.count == 1
    case (true, false): return left == right && right.count == 1
    case (true, true): return false
    }
  }

  /// The key whose value a comparison needs to hold: the first component of a path whose
  /// comparison nil does not pass (`attribute.valueType = 'Date'`); none when nil passes it
  /// (`!=`, `= nil`, `< 10`, a list holding nil).
  private static func needsValue(_ comparison: Qualifier) -> String? {
    guard case .comparison(let path, let op, let constant) = comparison,
      let key = path.components.first
    else { return nil }
    if case .list(let items) = constant, op == .in {
      return items.contains(.null) ? nil : key
    }
    return Qualifier.apply(op, .null, ComparableValue(constant)) ? nil : key
  }
}
