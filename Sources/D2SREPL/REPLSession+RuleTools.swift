import Components
import Plugins
import RuleCore

/// Rule tools: explain (with where rules were written, and `--tree`), why-not, lint and
/// coverage.
extension REPLSession {
  /// `FILE:LINE` of a user rule loaded from a file or written in Swift, or nil.
  func place(of numbered: NumberedRule) -> String? {
    guard numbered.origin == .user else { return nil }
    if let source = context.engine.source(of: numbered), source.file != nil {
      return source.description
    }
    if let location = numbered.rule.location, location.file != nil { return location.description }
    return nil
  }

  /// A rule's source as `show` and `explain` print it, with `(FILE:LINE)` when it has one.
  func sourceText(_ numbered: NumberedRule) -> String {
    numbered.description + (place(of: numbered).map { "  (\($0))" } ?? "")
  }

  /// `explain KEY`: a header, then every candidate in rank order, each rule from a file with
  /// its place.
  func explainText(_ key: String) throws -> String {
    let explanation = try context.explain(keyNamed: key)
    if explanation.isExplicit { return explanation.description }
    var lines = ["rank  priority  complexity  status  rule"]
    lines += explanation.entries.map { entry in
      "\(entry.rank)  \(entry.rule.rule.priority)  \(entry.rule.rule.complexity)  \(entry.status)  \(sourceText(entry.rule))"
    }
    lines.append(
      "winner: " + (explanation.winner.map { sourceText($0.rule) } ?? "none (default value)"))
    lines.append(explanation.showLine)
    return lines.joined(separator: "\n")
  }

  /// `explain --tree KEY`: one line per nested look-up, indented.
  func explainTree(_ key: String) throws -> String {
    try context.resolutionTree(forKeyNamed: key).steps.map(\.description).joined(separator: "\n")
  }

  /// `why-not LABEL [for PROPERTY]`.
  func whyNot(_ label: String, property: String?) throws -> String {
    let numbered = try context.engine.rule(labelled: label)
    var asked = context
    if let property {
      var name = property
      if let entity = context.entity, context.database != nil {
        name = try propertyName(property, in: entity)
      }
      asked = context.with(\.propertyKey, name)
    }
    return try asked.whyNot(numbered).description
  }

  /// `lint [--all]`: the warnings, then `N warnings` or `no warnings`.
  func lint(all: Bool) -> String { lintReport(all: all).text }

  /// `lint --plugin NAME`: the same for that plugin's rules only.
  func lint(plugin: String) throws -> String { try lintReport(plugin: plugin).text }

  /// The rule models `lint` reads: the user's, with `all` every model.
  func lintModels(all: Bool) -> [RuleModel] {
    all ? context.engine.models : [context.engine.ruleModel]
  }

  /// The findings in `models`.
  func lintWarnings(_ models: [RuleModel]) -> [RuleLintWarning] {
    RuleLinter(
      engine: context.engine, looks: looks, formatters: formatters,
      model: context.database?.model
    ).lint(models)
  }

  /// The lint's text and its number of warnings.
  func lintReport(all: Bool) -> (text: String, warnings: Int) {
    lintReport(lintWarnings(lintModels(all: all)))
  }

  /// The lint of the installed plugin `plugin`'s rules.
  func lintReport(plugin: String) throws -> (text: String, warnings: Int) {
    lintReport(lintWarnings(try plugins.ruleModelsToLint(ofPlugin: plugin, in: context.engine)))
  }

  private func lintReport(_ warnings: [RuleLintWarning]) -> (text: String, warnings: Int) {
    var lines = warnings.map(\.description)
    if context.database == nil {
      lines.append("no database is open: entity, key path and property names were not checked")
    }
    lines.append(
      warnings.isEmpty
        ? "no warnings" : "\(warnings.count) warning\(warnings.count == 1 ? "" : "s")")
    return (lines.joined(separator: "\n"), warnings.count)
  }

  /// `coverage [--all]`: per rule, how often it won and was evaluated; then the rules that
  /// never won.
  func coverage(all: Bool) -> String {
    let engine = context.engine
    let rules = all ? engine.allRules : engine.ruleModel.rules
    guard !rules.isEmpty else { return "no rules" }
    var lines = ["rule  won  evaluated"]
    for numbered in rules {
      let counts = engine.coverage.counts(of: numbered)
      lines.append("\(numbered.label)  \(counts.won)  \(counts.evaluated)")
    }
    let never = neverWon(all: all)
    lines.append(never.isEmpty ? "every rule won at least once" : "never won:")
    lines += never.map { "  " + sourceText($0) }
    return lines.joined(separator: "\n")
  }

  /// The rules (the user's, or all) that have not won since the session started.
  public func neverWon(all: Bool = false) -> [NumberedRule] {
    let engine = context.engine
    return (all ? engine.allRules : engine.ruleModel.rules).filter {
      engine.coverage.counts(of: $0).won == 0
    }
  }
}
