import D2SModel
import EnvKeys
import Foundation
import Plugins
import RuleCore

/// Typed answers, why-not and coverage.
extension RuleTester {
  /// A tester over the rules of the file at `path` (its rules keep their `FILE:LINE`), the
  /// plugins' rules and the builtin ones; `coverage` collects which of them win.
  ///
  /// ```swift
  /// let tester = try RuleTester(ruleFile: "Rules/app.d2s", coverage: Self.coverage)
  /// ```
  public init(
    ruleFile path: String, plugins: [any D2SPlugin] = [], database: Database? = nil,
    coverage: RuleCoverage? = nil
  ) throws {
    try self.init(rules: "", plugins: plugins, database: database)
    let placed = try context.engine.parser.parsePlacedRuleFile(atPath: path)
    context.engine.ruleModel.add(contentsOf: placed)
    coverage?.track(self)
  }

  /// A tester over rule text whose wins `coverage` collects.
  public init(
    rules: String, plugins: [any D2SPlugin] = [], database: Database? = nil, coverage: RuleCoverage
  ) throws {
    try self.init(rules: rules, plugins: plugins, database: database)
    coverage.track(self)
  }

  /// The value of a typed key: `#expect(try tester.value(BadgeKey.self) == "★ premium")`.
  /// - Throws: what the look-up ran into (a rule cycle, a missing computation).
  public func value<K: DynamicEnvironmentKey>(_ key: K.Type) throws -> K.Value {
    try context.resolve(key)
  }

  /// The value of a key by its property: `tester.value(\.displayNameForEntity)`.
  /// - Throws: the first error the look-up ran into (a rule cycle, for one).
  public func value<V>(_ keyPath: KeyPath<RuleContext, V>) throws -> V {
    let (value, errors) = context.engine.collectingReadErrors { context[keyPath: keyPath] }
    if let error = errors.first { throw error }
    return value
  }

  /// Why the rule labelled `label` (`2`, `AuditKeys:1`, `builtin:12`) does or does not give
  /// its key's value here; its `description` is the line `why-not` prints.
  public func whyNot(rule label: String) throws -> RuleWhyNot {
    try context.whyNot(try context.engine.rule(labelled: label))
  }

  /// Why user rule number `number` does or does not give its key's value here.
  public func whyNot(rule number: Int) throws -> RuleWhyNot {
    try whyNot(rule: "\(number)")
  }

  /// The user rules that have not won a look-up of this tester (or a copy of it) so far, as
  /// `rule N: …` lines.
  public var neverWon: [String] {
    context.engine.ruleModel.rules.filter { context.engine.coverage.counts(of: $0).won == 0 }
      .map(\.description)
  }
}
