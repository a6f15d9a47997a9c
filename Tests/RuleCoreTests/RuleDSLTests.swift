import EnvKeys
import Qualifiers
import Testing

@testable import RuleCore

@Suite struct RuleDSLTests {
  /// An engine over `model` with the test keys in a registry of its own (no shared state).
  func engine(_ model: RuleModel, registry: D2SContextKVC = TestRegistry.make()) throws
    -> RuleEngine
  {
    try RuleEngine(ruleModel: model, registry: registry)
  }

  @Test func compilesToTheSameRulesAsText() throws {
    let dsl: RuleModel = [
      \.propertyKey == "rating" && \.task == "edit" => \.component <= EditRating(),
      \.entity?.name == "Actor" => \.displayNameForEntity <= "Moviestars",
      (\.task == "list" => \.nextTask <= "inspect").priority(.low),
      \.entity?.name == "Customer" => \.title <= \.object?.lastName,
      !(\.debug == true) || \.count >= 3 => \.displayPropertyKeys <= ["a", "b"],
      \.object?.firstName != \.user?.firstName => \.isObjectEditable <= false,
      \.debug => \.title <= "Debugging",
      \.debug && \.task == "list" => \.nextTask <= "edit",
      \.task == "edit" || \.debug => \.nextTask <= "list",
      \.title <= "Unconditional",
    ]
    let registry = TestRegistry.make()
    let text = RuleModel(
      try RuleParser(registry: registry).parseRules(
        """
        propertyKey = 'rating' AND task = 'edit' => component = 'EditRating'
        entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
        task = 'list' => nextTask = 'inspect' ; low
        entity.name = 'Customer' => title = object.lastName
        NOT debug = true OR count >= 3 => displayPropertyKeys = ('a', 'b')
        object.firstName != user.firstName => isObjectEditable = false
        debug = true => title = 'Debugging'
        debug = true AND task = 'list' => nextTask = 'edit'
        task = 'edit' OR debug = true => nextTask = 'list'
        *true* => title = 'Unconditional'
        """))
    #expect(dsl.count == 10, "a model holds its Swift rules before it is attached")
    _ = try engine(dsl, registry: registry)
    #expect(dsl.rules.map(\.rule) == text.rules.map(\.rule))
    #expect(dsl.description == text.description)
  }

  @Test func namesComeFromTheEngineNotTheSharedRegistry() throws {
    let model: RuleModel = [\.task == "list" => \.nextTask <= "inspect"]
    let registry = TestRegistry.make()
    #expect(D2SContextKVC.shared.key(named: "nextTask") == nil)
    let context = RuleContext(engine: try engine(model, registry: registry)).with(\.task, "list")
    #expect(context.nextTask == "inspect")
    #expect(model.count == 1 && model.rules.count == 1)
  }

  @Test func behavesLikeText() throws {
    let model: RuleModel = [
      \.entity?.name == "Customer" => \.title <= \.object?.lastName,
      (\.task == "list" => \.nextTask <= "inspect").priority(.low),
    ]
    let ctx = RuleContext(engine: try engine(model))
      .with(Keys.Entity.self, TestEntity("Customer")).with(
        Keys.Object.self, Person("MARY", "SMITH"))
    #expect(ctx.title == "SMITH")
    #expect(ctx.with(\.task, "list").nextTask == "inspect")
    #expect(
      try ctx.with(\.task, "list").explain(keyNamed: "nextTask").entries.first?.rule.rule.priority
        == .low)
  }

  @Test func anUnexposedKeyMakesAttachingThrowWithTheRulesPlace() throws {
    let registry = D2SContextKVC()
    try registry.expose(Keys.Task.self, "task")
    let model = RuleModel()
    let line = #line + 1
    model.add(\.task == "edit" => \.count <= 3)
    model.add(\.task == "list" => \.task <= "inspect")
    let error = try #require(throws: RuleDSLError.self) {
      try RuleEngine(ruleModel: model, registry: registry)
    }
    #expect(error.failures.count == 1)
    let failure = try #require(error.failures.first)
    #expect(failure.location.line == line)
    #expect(failure.location.file?.hasSuffix("RuleDSLTests.swift") == true)
    #expect(
      "\(error)".contains(
        "RuleDSLTests.swift:\(line): the key RuleCoreTests.Keys.Count is not exposed"))
    #expect(failure.rule == "task = 'edit' => <RuleCoreTests.Keys.Count> = 3")
    #expect(model.rules.count == 1, "the other rule is attached")
    #expect(model.unattachedRules.count == 1)
    #expect(throws: RuleDSLError.self, "reported again by the next attach") {
      try model.attach(to: registry)
    }
  }

  @Test func aConstantThatDoesNotFitIsReported() throws {
    let model: RuleModel = [\.task == "x" => \.count <= EditRating()]
    let error = try #require(throws: RuleDSLError.self) { try engine(model) }
    #expect(
      error.failures.first?.reason
        == "cannot use a string 'EditRating' for key 'count': expected Int")
  }

  @Test func assigningAKeyPathThatIsNotAKeyIsReported() throws {
    let model: RuleModel = [\.task == "x" => \.object?.lastName <= "y"]
    #expect(model.count == 1)
    let error = try #require(throws: RuleDSLError.self) { try engine(model) }
    #expect(error.failures.first?.reason.contains("a rule assigns a key, not the key path") == true)
  }

  @Test func aPriorityRecordsItsPlaceExactly() throws {
    let rule = (\.task == "list" => \.nextTask <= "inspect").priority(.low)
    #expect(rule.location.line == #line - 1)
  }

  @Test func rulesAddedAfterAttachingAreNamedAtOnce() throws {
    let model = RuleModel()
    let ctx = RuleContext(engine: try engine(model))
    model.add(\.task == "list" => \.nextTask <= "inspect")
    #expect(model.rules.count == 1)
    #expect(ctx.with(\.task, "list").nextTask == "inspect")
  }

  @Test func printsBeforeAttachingWithUsualNames() {
    let model: RuleModel = [(\.task == "list" => \.nextTask <= "inspect").priority(.low)]
    #expect(model.description == "task = 'list' => <RuleCoreTests.Keys.NextTask> = 'inspect' ; low")
  }
}
