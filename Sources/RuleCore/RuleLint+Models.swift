import Qualifiers

extension RuleEngine {
  /// The rules of the plugin model `model` that a model ranked before it (the user's, or an
  /// earlier plugin's) always outranks: a rule there for the same key with a constant value
  /// whose condition is the same or weaker (its comparisons are a subset of the plugin rule's,
  /// or `*true*`), so it matches wherever the plugin's does and, its model coming first, wins.
  /// Other models' rules are not judged (the user's come first; the builtin ones are
  /// fallbacks by design). Only predicates that are conjunctions of comparisons are judged.
  public func outrankedLint(of model: RuleModel) -> [RuleLintWarning] {
    guard case .plugin = model.origin,
      let position = models.firstIndex(where: { $0 === model })
    else { return [] }
    let earlier = models[..<position].flatMap(\.rules)
    let byKey = Dictionary(grouping: earlier, by: { $0.rule.key.id })
    var warnings: [RuleLintWarning] = []
    for rule in model.rules {
      guard let parts = RuleEngine.conjuncts(rule.rule.predicate) else { continue }
      for other in byKey[rule.rule.key.id] ?? [] {
        guard case .constant = other.rule.value,
          let otherParts = RuleEngine.conjuncts(other.rule.predicate),
          otherParts.allSatisfy({ parts.contains($0) })
        else { continue }
        let place = other.origin == .user ? source(of: other).map { " (\($0))" } ?? "" : ""
        let what = other.rule.value == rule.rule.value ? "is redundant" : "can never win"
        let whose = other.origin == .user ? "the user's rules come" : "its plugin comes"
        warnings.append(
          RuleLintWarning(
            rule: rule, source: source(of: rule),
            message:
              "\(rule.labelPhrase) \(what): \(other.labelPhrase)\(place) matches whenever it does, and \(whose) first (a rule's priority ranks it only within its own model)"
          ))
        break
      }
    }
    return warnings
  }
}
