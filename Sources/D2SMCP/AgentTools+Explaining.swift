import Components
import D2SApplication
import D2SModel
import RuleCore

/// `why_not`: why a rule did not decide, for a user a rule lets see explanations
/// (`mayExplain`), in the context the agent names (an entity, a row, a property).
extension AgentTools {
  /// `why_not`: the reason rule `rule` (a label from `rules`: `3`, `builtin:12`) did not win.
  func whyNot(_ arguments: Arguments) throws -> String {
    guard context.mayExplain else {
      throw ToolError(
        "not allowed: explanations are for users a rule lets see them (mayExplain = true)")
    }
    let label = try arguments.required("rule")
    var asked = context
    if try arguments.string("entity") != nil {
      let entity = try self.entity(arguments)
      asked.entity = entity
      if arguments.values["key"] != nil {
        asked.object = try object(of: entity, arguments.key())
      }
      if let property = try arguments.string("property") {
        asked.propertyKey = try names.property(property, of: entity)
      }
    }
    if let task = try arguments.string("task") { asked.task = task }
    let numbered: NumberedRule
    do {
      numbered = try context.engine.rule(labelled: label)
    } catch {
      throw ToolError("rule: no rule labelled \(label)")
    }
    return JSONText.object([
      ("rule", JSONText.string(label)),
      (
        "explanation",
        JSONText.string(
          PasswordPaths.description(of: try asked.whyNot(numbered), in: asked.database?.model))
      ),
    ])
  }
}
