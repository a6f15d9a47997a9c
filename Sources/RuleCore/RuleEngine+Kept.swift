/// What an engine keeps of the answers of the models and computations it shares with its
/// siblings (``RuleEngine/sibling(maximumAnswersPerKey:)``).
struct KeptAnswers: Sendable {
  /// The models' ``RuleEngine/rulesVersion`` the candidates were found at.
  var rulesVersion = -1
  /// Each key's candidates, by model (the models with none left out).
  var candidates: [ObjectIdentifier: [KeyCandidates]] = [:]
  /// The computations' version the computations were found at.
  var computationsVersion = -1
  /// Each computation by its name; nil for a name none has.
  var computations: [String: RuleComputations.Computation?] = [:]
}

extension RuleEngine {
  /// The candidates of each model that has rules for the key `id`, in the models' order:
  /// kept until a model gains or loses a rule.
  func candidates(for id: ObjectIdentifier) -> [KeyCandidates] {
    let version = rulesVersion
    if let known = kept.withLock({ $0.rulesVersion == version ? $0.candidates[id] : nil }) {
      return known
    }
    let found = models.compactMap { $0.candidates(for: id) }
    kept.withLock { kept in
      if kept.rulesVersion != version {
        kept.rulesVersion = version
        kept.candidates = [:]
      }
      kept.candidates[id] = found
    }
    return found
  }

  /// The computation named `name`: kept until a computation is registered.
  func computation(named name: String) -> RuleComputations.Computation? {
    let version = computations.version
    if let known = kept.withLock({ $0.computationsVersion == version ? $0.computations[name] : nil }
    ) {
      return known
    }
    let found = computations.computation(named: name)
    kept.withLock { kept in
      if kept.computationsVersion != version {
        kept.computationsVersion = version
        kept.computations = [:]
      }
      kept.computations[name] = .some(found)
    }
    return found
  }
}
