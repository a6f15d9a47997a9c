import EnvKeys
import Testing

@testable import RuleCore

@Suite struct RuleCacheTests {
  @Test func repeatedLookupsHitTheCache() throws {
    let ctx = try context("propertyKey = 'p1' => displayNameForProperty = 'P1'").with(
      \.propertyKey, "p1")
    #expect(ctx.displayNameForProperty == "P1")
    let before = ctx.engine.cacheStatistics
    let evaluations = ctx.engine.evaluationCount
    for _ in 0..<100 { #expect(ctx.displayNameForProperty == "P1") }
    #expect(ctx.engine.cacheStatistics.hits == before.hits + 100)
    #expect(ctx.engine.evaluationCount == evaluations, "no rule was evaluated again")
  }

  @Test func answersAreSharedAcrossContextsWithEqualInputs() throws {
    let ctx = try context("propertyKey = 'p1' => displayNameForProperty = 'P1'")
    _ = ctx.with(\.propertyKey, "p1").displayNameForProperty
    let misses = ctx.engine.cacheStatistics.misses
    for person in (0..<50).map({ Person("N\($0)", nil) }) {
      let row = ctx.with(Keys.Object.self, person).with(\.propertyKey, "p1")
      #expect(row.displayNameForProperty == "P1")
    }
    #expect(ctx.engine.cacheStatistics.misses == misses, "the answer does not depend on the object")
  }

  @Test func differentInputsMiss() throws {
    let ctx = try context(
      "propertyKey = 'p1' => displayNameForProperty = 'P1'\n*true* => displayNameForProperty = 'other' ; low"
    )
    #expect(ctx.with(\.propertyKey, "p1").displayNameForProperty == "P1")
    #expect(ctx.with(\.propertyKey, "p2").displayNameForProperty == "other")
    #expect(ctx.with(\.propertyKey, "p1").displayNameForProperty == "P1")
  }

  @Test func objectRulesAreNeverServedStale() throws {
    let ctx = try context(
      """
      object.firstName = 'STEVE' => isObjectEditable = false
      *true* => isObjectEditable = true ; low
      """)
    let steve = Person("STEVE", "SMITH")
    let row = ctx.with(Keys.Object.self, steve)
    #expect(!row.isObjectEditable)
    #expect(!row.isObjectEditable)
    steve.firstName = "BOB"
    #expect(row.isObjectEditable, "the object changed, the answer follows")
    steve.firstName = "STEVE"
    #expect(!row.isObjectEditable)
    let hits = ctx.engine.cacheStatistics.hits
    #expect(!row.isObjectEditable)
    #expect(ctx.engine.cacheStatistics.hits == hits + 1, "an unchanged object is a hit")
  }

  @Test func freedObjectsDoNotLendTheirAnswersToNewOnes() throws {
    // A new object often lands at a freed object's address; answers must follow identity, not
    // addresses.
    let ctx = try context("*true* => title = object.lastName")
    for n in 0..<500 {
      let person = Person("P", "name \(n)")
      #expect(ctx.with(Keys.Object.self, person).title == "name \(n)")
    }
  }

  @Test func derivedKeysPassTheirInputsOn() throws {
    let ctx = try context(
      """
      *true* => navigationBarTitle = title
      entity.name = 'Customer' => title = object.lastName
      """
    ).with(Keys.Entity.self, TestEntity("Customer"))
    let mary = Person("MARY", "SMITH")
    let row = ctx.with(Keys.Object.self, mary)
    #expect(row.navigationBarTitle == "SMITH")
    mary.lastName = "JONES"
    #expect(row.navigationBarTitle == "JONES", "navigationBarTitle depends on object through title")
  }

  @Test func settingADerivedKeyExplicitlyChangesAnswersBelow() throws {
    let ctx = try context("*true* => navigationBarTitle = title\n*true* => title = 'Rule title'")
    #expect(ctx.navigationBarTitle == "Rule title")
    #expect(ctx.with(\.title, "Mine").navigationBarTitle == "Mine")
    #expect(ctx.navigationBarTitle == "Rule title")
  }

  @Test func addingAndDroppingRulesClearsTheCache() throws {
    let registry = TestRegistry.make()
    let model = RuleModel()
    let ctx = RuleContext(engine: try RuleEngine(ruleModel: model, registry: registry)).with(
      \.task, "edit")
    #expect(ctx.title == "D2S")
    let (id, _) = model.add(
      try RuleParser(registry: registry).parseRule("task = 'edit' => title = 'Edit'"))
    #expect(ctx.title == "Edit")
    model.remove(id: id)
    #expect(ctx.title == "D2S")
  }

  /// A model remembers that it has no rule for a key (so it does not scan its rules again),
  /// and forgets it when one is added: without the answer cache in between.
  @Test func aKeyAskedForBeforeItHadRulesGetsTheRuleAddedLater() throws {
    let ctx = try context("task = 'list' => title = 'List'", cache: false).with(\.task, "edit")
    #expect(ctx.navigationBarTitle == "")
    let registry = ctx.engine.registry
    let model = try #require(ctx.engine.models.first)
    let (id, _) = model.add(
      try RuleParser(registry: registry).parseRule("task = 'edit' => navigationBarTitle = 'Edit'"))
    #expect(ctx.navigationBarTitle == "Edit")
    model.remove(id: id)
    #expect(ctx.navigationBarTitle == "")
  }

  @Test func disabledCacheGivesTheSameAnswers() throws {
    let ctx = try context("propertyKey = 'p1' => displayNameForProperty = 'P1'", cache: false).with(
      \.propertyKey, "p1")
    #expect(ctx.displayNameForProperty == "P1")
    #expect(ctx.displayNameForProperty == "P1")
    #expect(ctx.engine.cacheStatistics.hits == 0)
  }
}
