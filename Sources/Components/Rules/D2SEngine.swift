import D2SModel
import EnvKeys
import RuleCore

/// Builds rule engines with the builtin keys, computations and default rule model.
///
/// ```swift
/// let engine = try D2SEngine.make(rules: userRules)
/// var context = RuleContext(engine: engine)
/// context.database = database
/// ```
public enum D2SEngine {
  /// An engine over `rules` (the user's), then `fallbacks` (plugins' models), then the builtin
  /// default rule model; keys are exposed in `registry`.
  public static func make(
    rules: RuleModel = RuleModel(), fallbacks: [RuleModel] = [], registry: D2SContextKVC = .shared
  ) throws -> RuleEngine {
    try D2SKeys.expose(in: registry)
    let computations = RuleComputations()
    D2SComputations.register(in: computations)
    let builtin = try defaultRuleModel(registry: registry, computations: computations)
    return try RuleEngine(
      ruleModel: rules, fallbacks: fallbacks + [builtin], registry: registry,
      computations: computations)
  }

  /// An engine over rule text (the user's rules), after the builtin keys are exposed.
  /// - Throws: ``RuleFileError`` with every error of the text.
  public static func make(ruleText: String, file: String? = nil, registry: D2SContextKVC = .shared)
    throws -> RuleEngine
  {
    try D2SKeys.expose(in: registry)
    let computations = RuleComputations()
    D2SComputations.register(in: computations)
    let rules = RuleModel(
      try RuleParser(registry: registry, computations: computations).parseRules(
        ruleText, file: file))
    return try make(rules: rules, registry: registry)
  }

  /// The builtin default rule model, parsed from its text.
  public static func defaultRuleModel(registry: D2SContextKVC, computations: RuleComputations)
    throws -> RuleModel
  {
    let model = RuleModel(origin: .builtin)
    // Each rule is parsed when its key is first looked up: a start-up asks for a few keys.
    try model.loadDeferred(
      DefaultRules.text, file: "builtin",
      parser: RuleParser(registry: registry, computations: computations))
    return model
  }
}
