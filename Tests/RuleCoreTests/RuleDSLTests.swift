import EnvKeys
@testable import RuleCore
import Testing

@Suite struct RuleDSLTests {
  init() { _ = TestRegistry.shared }

  @Test func compilesToTheSameRulesAsText() throws {
    let dsl: RuleModel = [
      \.propertyKey == "rating" && \.task == "edit" => \.component <= EditRating(),
      \.entity?.name == "Actor" => \.displayNameForEntity <= "Moviestars",
      (\.task == "list" => \.nextTask <= "inspect").priority(.low),
      \.entity?.name == "Customer" => \.title <= \.object?.lastName,
      !(\.debug == true) || \.count >= 3 => \.displayPropertyKeys <= ["a", "b"],
      \.object?.firstName != \.user?.firstName => \.isObjectEditable <= false,
      \.title <= "Unconditional",
    ]
    let text = RuleModel(try RuleParser(registry: TestRegistry.shared).parseRules("""
      propertyKey = 'rating' AND task = 'edit' => component = 'EditRating'
      entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
      task = 'list' => nextTask = 'inspect' ; low
      entity.name = 'Customer' => title = object.lastName
      NOT debug = true OR count >= 3 => displayPropertyKeys = ('a', 'b')
      object.firstName != user.firstName => isObjectEditable = false
      *true* => title = 'Unconditional'
      """))
    #expect(dsl.rules.map(\.rule) == text.rules.map(\.rule))
    #expect(dsl.rules.map(\.rule.description) == text.rules.map(\.rule.description))
  }

  @Test func behavesLikeText() throws {
    let model: RuleModel = [
      \.entity?.name == "Customer" => \.title <= \.object?.lastName,
      (\.task == "list" => \.nextTask <= "inspect").priority(.low),
    ]
    let ctx = RuleContext(engine: RuleEngine(ruleModel: model, registry: TestRegistry.shared))
      .with(Keys.Entity.self, TestEntity("Customer")).with(Keys.Object.self, Person("MARY", "SMITH"))
    #expect(ctx.title == "SMITH")
    #expect(ctx.with(\.task, "list").nextTask == "inspect")
    #expect(try ctx.with(\.task, "list").explain(keyNamed: "nextTask").entries.first?.rule.rule.priority == .low)
  }

  @Test func assigningAKeyPathThatIsNotAKeyIsRejected() {
    let rule = \.task == "x" => \.object?.lastName <= "y"
    #expect(throws: RuleDSLError.self) { try rule.makeRule() }
    let model: RuleModel = [rule]
    #expect(model.count == 0)
  }
}
