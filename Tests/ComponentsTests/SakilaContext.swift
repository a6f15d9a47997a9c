import Components
import D2SModel
import D2STesting
import EnvKeys
import RuleCore

/// A rule context over `rules` (the user's) and the builtin rules, with a private copy of
/// Sakila open, in `registry`.
func sakilaContext(_ rules: String, registry: D2SContextKVC) throws -> RuleContext {
  try D2SKeys.expose(in: registry)
  let engine = try D2SEngine.make(
    rules: RuleModel(try RuleParser(registry: registry).parseRules(rules)), registry: registry)
  var context = RuleContext(engine: engine)
  context.database = try SakilaSQLite.open()
  return context
}
