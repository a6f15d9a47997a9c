import Components
import RuleCore

/// The rule tools' output as one JSON object each (`--format json`).
extension REPLSession {
  /// `lint`, `coverage` and `why-not` (which printed `text`) as JSON objects; nil for other
  /// commands.
  func ruleToolJSON(_ command: REPLCommand, text: String) throws -> String? {
    let engine = context.engine
    switch command {
    case .lint, .lintPlugin:
      let models: [RuleModel]
      if case .lintPlugin(let name) = command {
        models = try plugins.ruleModels(ofPlugin: name, in: engine)
      } else {
        models = lintModels(all: command == .lint(all: true))
      }
      let warnings = lintWarnings(models)
      return JSONText.object([
        ("warnings", JSONText.array(warnings.map { JSONText.string($0.description) })),
        ("count", "\(warnings.count)"),
        ("modelChecked", context.database == nil ? "false" : "true"),
      ])
    case .coverage(let all):
      let rules = (all ? engine.allRules : engine.ruleModel.rules).map { numbered in
        let counts = engine.coverage.counts(of: numbered)
        return JSONText.object([
          ("rule", JSONText.string(numbered.label)), ("won", "\(counts.won)"),
          ("evaluated", "\(counts.evaluated)"),
        ])
      }
      return JSONText.object([
        ("rules", JSONText.array(rules)),
        ("neverWon", JSONText.array(neverWon(all: all).map { JSONText.string($0.label) })),
      ])
    case .whyNot(let label, _):
      return JSONText.object([
        ("rule", JSONText.string(try engine.rule(labelled: label).label)),
        ("answer", JSONText.string(text)),
      ])
    default:
      return nil
    }
  }
}
