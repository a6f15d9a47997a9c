import EnvKeys
import Testing

@testable import RuleCore

/// ``RuleEngine/hasRules(for:)`` is kept per engine and asked again whenever a model gains or
/// loses a rule, in the user's model or a fallback.
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
}
