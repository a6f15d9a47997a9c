import Components
import D2SApplication
import D2SModel
import Foundation
import Plugins
import RuleCore

/// Rule tools: explain (with where rules were written, and `--tree`), why-not, lint and
/// coverage.
extension REPLSession {
  /// `FILE:LINE` of a user rule loaded from a file or written in Swift, or nil.
  func place(of numbered: NumberedRule) -> String? {
    KeyExplanation.place(of: numbered, in: context.engine)
  }

  /// A rule's source as `show` and `explain` print it, with `(FILE:LINE)` when it has one.
  func sourceText(_ numbered: NumberedRule) -> String {
    numbered.description + (place(of: numbered).map { "  (\($0))" } ?? "")
  }

  /// `explain KEY [for PROPERTY]`: a header, then every candidate in rank order, each rule
  /// from a file with its place, and for one that did not match its first false condition.
  func explainText(_ key: String, for property: String? = nil) throws -> String {
    let asked = try context(for: property)
    let explanation = try KeyExplanation(keyNamed: key, in: asked, tree: false)
    let showLine = "\(explanation.key) = \(explanation.value)  # \(explanation.source)"
    if explanation.isExplicit { return "set explicitly; rules not consulted\n\(showLine)" }
    var lines = ["rank  priority  complexity  status  rule"]
    for candidate in explanation.candidates {
      lines.append(
        "\(candidate.rank)  \(candidate.priority)  \(candidate.complexity)  \(candidate.status)  \(candidate.rule)"
          + (candidate.place.map { "  (\($0))" } ?? ""))
      if let condition = candidate.falseCondition {
        let values = candidate.actual.map { "\($0.path) = \($0.value)" }.joined(separator: ", ")
        lines.append("     false: \(condition)" + (values.isEmpty ? "" : " (\(values))"))
      }
    }
    lines.append(
      "winner: "
        + (explanation.winner.map { $0 + (explanation.winnerPlace.map { "  (\($0))" } ?? "") }
          ?? "none (default value)"))
    lines.append(showLine)
    // On a list, no row is the object: a rule that reads it decides each cell on its own.
    if asked.object == nil, asked.task == "list",
      let reading = explanation.candidates.first(where: { candidate in
        let rule = try? context.engine.rule(labelled: candidate.label)
        return rule?.rule.predicate.keyPaths.contains { $0.components.first == "object" } == true
      })
    {
      lines.append(
        "note: \(reading.rule.split(separator: ":").first ?? "a rule") reads each row (object): its answer can differ from row to row, which this list works out cell by cell; inspect a row to explain it there"
      )
    }
    return lines.joined(separator: "\n")
  }

  /// `inspect --explain`: each row of the current page (its properties, in order) with the
  /// rule behind its component and the rule behind its label, `FILE:LINE` where they have one.
  func explainedRows() throws -> String {
    guard context.entity != nil, ["inspect", "edit", "list"].contains(context.task) else {
      throw REPLError("inspect --explain explains the page shown: inspect, edit or list one first")
    }
    let keys = context.displayPropertyKeys
    guard !keys.isEmpty else { return "no properties shown" }
    var rows: [[String]] = [["property", "label", "component", "from"]]
    for key in keys {
      let row = context.with(\.propertyKey, key)
      let component = try KeyExplanation(keyNamed: "component", in: row, tree: false)
      let label = try KeyExplanation(keyNamed: "displayNameForProperty", in: row, tree: false)
      func origin(_ explanation: KeyExplanation) -> String {
        guard let winner = explanation.winner else { return explanation.source }
        let labelled = winner.prefix { $0 != ":" }
        return String(labelled) + (explanation.winnerPlace.map { " (\($0))" } ?? "")
      }
      rows.append([
        key, label.value, component.value,
        "component: \(origin(component)); label: \(origin(label))",
      ])
    }
    let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
        .joined(separator: "  ") + "  " + row[3]
    }
    .joined(separator: "\n")
  }

  /// `explain --tree KEY [for PROPERTY]`: one line per nested look-up, indented.
  func explainTree(_ key: String, for property: String? = nil) throws -> String {
    try context(for: property).resolutionTree(forKeyNamed: key).steps.map(\.description)
      .joined(separator: "\n")
  }

  /// The session's context, for `property` of the current entity when one is named.
  func context(for property: String?) throws -> RuleContext {
    guard let property else { return context }
    // A name in backticks (`` `na.me` ``) is that name.
    let typed = CommandParser.keyPath(property)
    var name = typed.components.count == 1 ? typed.components[0] : property
    if let entity = context.entity, context.database != nil {
      // A key path (`address.phone`, a list's column through a to-one) as a page names it.
      name =
        typed.components.count > 1
        ? try matchedPath(typed, from: entity).description : try propertyName(name, in: entity)
    }
    return context.with(\.propertyKey, name)
  }

  /// `why-not LABEL [for PROPERTY]`.
  func whyNot(_ label: String, property: String?) throws -> String {
    let numbered = try context.engine.rule(labelled: label)
    return try context(for: property).whyNot(numbered).description
  }

  /// `lint [--all]`: the warnings, then `N warnings` or `no warnings`.
  /// Ctrl-C stops it: nothing is printed but that it was interrupted.
  func lint(all: Bool) throws -> String {
    let text = lintReport(all: all).text
    try Interruption.check()
    return text
  }

  /// `lint --plugin NAME`: the same for that plugin's rules only.
  func lint(plugin: String) throws -> String {
    let text = try lintReport(plugin: plugin).text
    try Interruption.check()
    return text
  }

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
