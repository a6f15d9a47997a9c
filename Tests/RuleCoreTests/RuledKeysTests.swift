import EnvKeys
import Testing

@testable import RuleCore

/// What an engine keeps of its shared models and computations (``RuleEngine/hasRules(for:)``,
/// each key's candidates, each computation) is asked again whenever a model gains or loses a
/// rule, in the user's model or a fallback, or a computation is registered.
@Suite struct RuledKeysTests {
  @Test func aRuleAddedOrRemovedChangesTheAnswerKept() throws {
    let ctx = try context("task = 'edit' => title = 'Editing'", fallbacks: ["*true* => count = 1"])
    let engine = ctx.engine
    #expect(engine.hasRules(for: Keys.Title.self))
    #expect(engine.hasRules(for: Keys.Count.self))
    #expect(!engine.hasRules(for: Keys.Note.self))
    #expect(ctx.readsAlikeInEveryProbe(Keys.Note.self))

    let parser = RuleParser(registry: TestRegistry.make())
    let (id, _) = engine.ruleModel.add(try parser.parseRule("task = 'list' => note = 'n'"))
    #expect(engine.hasRules(for: Keys.Note.self))
    #expect(!ctx.readsAlikeInEveryProbe(Keys.Note.self))
    #expect(ctx.with(\.task, "list")[Keys.Note.self] == "n")

    _ = engine.ruleModel.remove(id: id)
    #expect(!engine.hasRules(for: Keys.Note.self))

    let sibling = engine.sibling()
    _ = engine.models[1].add(try parser.parseRule("*true* => note = 'fallback'"))
    #expect(engine.hasRules(for: Keys.Note.self))
    #expect(sibling.hasRules(for: Keys.Note.self))
  }

  @Test func aComputationRegisteredLaterIsFound() throws {
    let registry = TestRegistry.make()
    let computations = RuleComputations()
    let model = RuleModel(
      try RuleParser(registry: registry).parseRules("*true* => title = @late"))
    let engine = try RuleEngine(
      ruleModel: model, registry: registry, computations: computations, cache: false)
    let ctx = RuleContext(engine: engine)
    #expect(throws: RuleComputationError.self) { try ctx.resolve(Keys.Title.self) }
    computations.register("late") { _ in "registered" }
    #expect(try ctx.resolve(Keys.Title.self) == "registered")
    computations.register("late") { _ in "replaced" }
    #expect(try ctx.resolve(Keys.Title.self) == "replaced")
  }
}
