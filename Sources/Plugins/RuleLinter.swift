import Components
import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// `lint`: the structural findings of ``RuleCore`` (rules that can never win, ambiguous pairs,
/// duplicates, a plugin's rules that a model ranked before it always outranks) and the names a rule uses that nothing provides: components, formatters,
/// entities, tasks, key paths and property names (the last three need a database's model).
///
/// ```swift
/// let linter = RuleLinter(engine: engine, looks: registry.looks, formatters: registry.formatters)
/// let warnings = linter.lint(engine.models.filter { $0.origin == .plugin("AuditKeys") })
/// ```
public struct RuleLinter {
  /// The engine whose rules are linted (and whose other rules tell which tasks have pages).
  public let engine: RuleEngine
  /// The components rules may name.
  public let looks: LookRegistry
  /// The formatters rules may name.
  public let formatters: FormatterRegistry
  /// The open database's model; nil skips the checks that need one.
  public let model: D2SModel.Model?

  /// A linter of `engine`'s rules; without `model`, entity, key path and property names are
  /// not checked.
  public init(
    engine: RuleEngine, looks: LookRegistry, formatters: FormatterRegistry,
    model: D2SModel.Model? = nil
  ) {
    self.engine = engine
    self.looks = looks
    self.formatters = formatters
    self.model = model
  }

  /// The findings for `models`, sorted by file and line; those found so far when Ctrl-C
  /// asks to stop (``Interruption``).
  public func lint(_ models: [RuleModel]) -> [RuleLintWarning] {
    var warnings: [RuleLintWarning] = []
    for model in models {
      if Interruption.isRequested { break }
      warnings += engine.structuralLint(of: model, stop: { Interruption.isRequested })
      warnings += engine.outrankedLint(of: model)
      let tasks = handledTasks
      for rule in model.rules { warnings += names(in: rule, tasks: tasks) }
    }
    return warnings.sorted(by: RuleLintWarning.precedes)
  }

  /// The tasks some page handles: those of rules that assign `page` under `task = '…'`.
  var handledTasks: Set<String> {
    var tasks: Set<String> = []
    for rule in engine.allRules where rule.rule.key.name == "page" {
      for case .string(let task) in RuleLinter.constants(
        comparedTo: "task", in: rule.rule.predicate)
      {
        tasks.insert(task)
      }
    }
    return tasks
  }

  // MARK: - Names

  private func names(in numbered: NumberedRule, tasks: Set<String>) -> [RuleLintWarning] {
    let rule = numbered.rule
    let source = engine.source(of: numbered)
    var warnings: [RuleLintWarning] = []
    func warn(_ message: String, at token: String?) {
      let location = token.flatMap { text in
        source?.location(ofFirstToken: { RuleLinter.spells($0, text) })
      }
      warnings.append(
        RuleLintWarning(rule: numbered, source: source, location: location, message: message))
    }
    let type = rule.key.valueTypeName.replacing("?", with: "")
    if case .constant(.string(let name)) = rule.value {
      if type == ComponentName.contextTypeName {
        let known = Set(looks.catalog.flatMap(\.components))
        if !known.contains(name) {
          warn(unknown("component", name, among: Array(known), "no look has it"), at: "'\(name)'")
        }
      } else if type == FormatterName.contextTypeName, formatters.formatter(named: name) == nil {
        warn(
          unknown("formatter", name, among: formatters.names, "it is not registered"),
          at: "'\(name)'")
      }
    }
    for case .string(let task) in RuleLinter.constants(comparedTo: "task", in: rule.predicate)
    where !tasks.contains(task) {
      warn(unknown("task", task, among: Array(tasks), "no page handles it"), at: "'\(task)'")
    }
    guard let model else { return warnings }
    let entityNames = model.entities.map(\.name)
    for case .string(let name) in RuleLinter.constants(
      comparedTo: "entity.name", in: rule.predicate)
    where model.entity(named: name) == nil {
      warn(
        unknown("entity", name, among: entityNames, "the model has no such entity"), at: "'\(name)'"
      )
    }
    if ["visibleEntityNames", "readOnlyEntityNames"].contains(rule.key.name),
      case .constant(let literal) = rule.value
    {
      for name in RuleLinter.strings(in: literal) where model.entity(named: name) == nil {
        warn(
          unknown("entity", name, among: entityNames, "the model has no such entity"),
          at: "'\(name)'")
      }
    }
    guard let entity = pinnedEntity(rule.predicate) else { return warnings }
    var paths = rule.predicate.keyPaths
    if case .keyPath(let path) = rule.value { paths.append(path) }
    if case .negatedKeyPath(let path) = rule.value { paths.append(path) }
    for path in paths where path.first == "object" && path.components.count > 1 {
      if let problem = missing(Array(path.components.dropFirst()), from: entity) {
        warn("key path \(path): \(problem)", at: path.description)
      }
    }
    if rule.key.name == "displayPropertyKeys", case .constant(let literal) = rule.value {
      for name in RuleLinter.strings(in: literal) where PropertyGroup.heading(name) == nil {
        if let problem = missing(name.split(separator: ".").map(String.init), from: entity) {
          warn("displayPropertyKeys: '\(name)': \(problem)", at: "'\(name)'")
        }
      }
    }
    return warnings
  }

  /// The entity a predicate pins down (`entity.name = 'Film'` as it or one of its conjuncts).
  private func pinnedEntity(_ predicate: Qualifier) -> Entity? {
    let parts: [Qualifier]
    if case .and(let all) = predicate { parts = all } else { parts = [predicate] }
    for case .comparison(let path, .equal, .string(let name)) in parts
    where path.description == "entity.name" {
      return model?.entity(named: name)
    }
    return nil
  }

  /// Why `components` is no key path of `entity`, or nil when it is one.
  private func missing(_ components: [String], from entity: Entity) -> String? {
    guard let model else { return nil }
    let walk = KeyPathWalk(components, from: entity, in: model, toMany: true)
    guard case .notARelationship = walk.stop, let name = walk.rest.first else { return nil }
    let current = walk.owner
    if current.attribute(named: name) != nil, walk.rest.count == 1 { return nil }
    let names = current.attributes.map(\.name) + current.relationships.map(\.name)
    let close = Suggestions.closest(to: name, among: names).map { "'\($0)'" }
    return "\(current.name) has no property '\(name)'"
      + (close.isEmpty ? "" : "; did you mean \(close.joined(separator: ", "))?")
  }

  private func unknown(_ what: String, _ name: String, among names: [String], _ why: String?)
    -> String
  {
    let close = Suggestions.closest(to: name, among: names)
    var text = "unknown \(what) '\(name)'"
    if let why { text += " (\(why))" }
    if !close.isEmpty {
      text += "; did you mean " + close.map { "'\($0)'" }.joined(separator: ", ") + "?"
    }
    return text
  }

  // MARK: - Reading predicates and values

  /// The constants a predicate compares `path` with (`=`, `in`), anywhere in it.
  static func constants(comparedTo path: String, in predicate: Qualifier) -> [DatabaseValue] {
    switch predicate {
    case .comparison(let p, .equal, let value) where p.description == path: [value]
    case .comparison(let p, .in, .list(let items)) where p.description == path: items
    case .and(let parts), .or(let parts): parts.flatMap { constants(comparedTo: path, in: $0) }
    case .not(let inner): constants(comparedTo: path, in: inner)
    default: []
    }
  }

  /// The strings of a literal string or list.
  static func strings(in literal: Literal) -> [String] {
    switch literal {
    case .string(let s): [s]
    case .list(let items): items.flatMap(strings(in:))
    default: []
    }
  }

  /// Whether `token` is written as `text` (a quoted string or a name).
  static func spells(_ token: Token, _ text: String) -> Bool {
    switch token.kind {
    case .string(let s): "'\(s)'" == text
    case .identifier(let name): name == text
    default: false
    }
  }
}
