import Plugins
import RuleCore

extension RuleTester {
  /// The `lint` findings of the tester's own rules and its plugins' rules (the builtin rules
  /// left out), or with `plugin`, of that plugin's rules only (what `--lint --plugin NAME`
  /// prints), for a test to expect none. With a database, entity and key path names are
  /// checked too.
  ///
  /// ```swift
  /// let tester = try RuleTester(plugins: [AuditKeysPlugin()])
  /// #expect(try tester.lint(plugin: "AuditKeys").isEmpty)
  /// ```
  /// - Throws: ``PluginError`` when `plugin` names no installed plugin, or one without rules.
  public func lint(plugin: String? = nil) throws -> [RuleLintWarning] {
    let engine = context.engine
    let models =
      try plugin.map { try plugins.ruleModelsToLint(ofPlugin: $0, in: engine) }
      ?? engine.models.filter { $0.origin != .builtin }
    return RuleLinter(
      engine: engine, looks: plugins.looks, formatters: plugins.formatters,
      model: context.database?.model
    ).lint(models)
  }
}
