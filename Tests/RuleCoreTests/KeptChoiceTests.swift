import EnvKeys
import Testing

@testable import RuleCore

/// A rule whose value reads the object (a title) is chosen once by what its predicate read,
/// and only its value is read for the next object; the choice never outlives what made it.
@Suite struct KeptChoiceTests {
  @Test func theNextObjectsTitleWalksNoRule() throws {
    let ctx = try context(
      """
      entity.name = 'Customer' => title = object.lastName
      entity.name = 'Staff' => title = object.firstName
      *true* => title = 'none' ; low
      """
    ).with(Keys.Entity.self, TestEntity("Customer"))
    #expect(ctx.with(Keys.Object.self, Person("MARY", "SMITH")).title == "SMITH")
    let evaluations = ctx.engine.evaluationCount
    for n in 0..<20 {
      #expect(ctx.with(Keys.Object.self, Person("P", "name \(n)")).title == "name \(n)")
    }
    #expect(ctx.engine.evaluationCount == evaluations, "no predicate evaluated again")
    let staff = ctx.with(Keys.Entity.self, TestEntity("Staff"))
    #expect(staff.with(Keys.Object.self, Person("MIKE", "HILLYER")).title == "MIKE")
    #expect(staff.with(Keys.Object.self, Person("JON", "STEPHENS")).title == "JON")
  }

  @Test func aRuleSkippedForItsValueMakesTheChoiceDependOnIt() throws {
    // The first object has no last name: its title's rule is the second one, chosen after
    // reading the object. The next object has one, and the first rule must win for it.
    let ctx = try context(
      """
      *true* => title = object.lastName ; high
      *true* => title = object.firstName
      """)
    #expect(ctx.with(Keys.Object.self, Person("ANN", nil)).title == "ANN")
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    #expect(ctx.with(Keys.Object.self, Person("CAT", nil)).title == "CAT")
    #expect(ctx.with(Keys.Object.self, Person("DAN", "DOE")).title == "DOE")
  }

  @Test func aKeptChoiceWhoseValueNoLongerFitsWalksTheRules() throws {
    let ctx = try context(
      """
      *true* => title = object.lastName ; high
      *true* => title = object.firstName
      """)
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    #expect(ctx.with(Keys.Object.self, Person("ANN", nil)).title == "ANN")
    #expect(ctx.with(Keys.Object.self, Person("DAN", "DOE")).title == "DOE")
  }

  @Test func aPredicateReadingTheObjectChoosesForEachObject() throws {
    let ctx = try context(
      """
      object.firstName = 'STEVE' => title = object.lastName
      *true* => title = object.firstName ; low
      """)
    let steve = Person("STEVE", "SMITH")
    #expect(ctx.with(Keys.Object.self, steve).title == "SMITH")
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BOB")
    #expect(ctx.with(Keys.Object.self, Person("STEVE", "JONES")).title == "JONES")
    steve.firstName = "MARY"
    #expect(ctx.with(Keys.Object.self, steve).title == "MARY", "the object changed")
  }

  @Test func aDerivedKeyInAPredicateIsPartOfTheChoice() throws {
    let ctx = try context(
      """
      displayNameForProperty = 'Name' => title = object.lastName
      *true* => title = object.firstName ; low
      propertyKey = 'name' => displayNameForProperty = 'Name'
      """)
    let person = Person("ANN", "ADAMS")
    #expect(ctx.with(\.propertyKey, "name").with(Keys.Object.self, person).title == "ADAMS")
    #expect(ctx.with(\.propertyKey, "other").with(Keys.Object.self, person).title == "ANN")
    #expect(ctx.with(\.propertyKey, "name").with(Keys.Object.self, Person("B", "BY")).title == "BY")
  }

  @Test func aUserRuleSkippedForItsValueKeepsNoFallbackChoice() throws {
    // The user's rule gives nothing for the first object, so the builtin rule answers; the
    // next object has a last name, and the user's rule must answer it.
    let ctx = try context(
      "*true* => title = object.lastName", fallbacks: ["*true* => title = object.firstName"])
    #expect(ctx.with(Keys.Object.self, Person("ANN", nil)).title == "ANN")
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    #expect(ctx.with(Keys.Object.self, Person("CAT", nil)).title == "CAT")
  }

  @Test func aKeptChoiceCountsAWinAndNoPredicate() throws {
    let ctx = try context("entity.name = 'Customer' => title = object.lastName")
      .with(Keys.Entity.self, TestEntity("Customer"))
    ctx.engine.coverage.start()
    let rule = try #require(ctx.engine.ruleModel.rules.first)
    for n in 0..<3 {
      #expect(ctx.with(Keys.Object.self, Person("P", "name \(n)")).title == "name \(n)")
    }
    #expect(ctx.engine.coverage.counts(of: rule) == .init(won: 3, evaluated: 1))
  }

  @Test func aNewRuleEndsTheKeptChoices() throws {
    let registry = TestRegistry.make()
    let parser = RuleParser(registry: registry)
    let model = RuleModel(try parser.parseRules("*true* => title = object.lastName"))
    let ctx = RuleContext(engine: try RuleEngine(ruleModel: model, registry: registry))
    #expect(ctx.with(Keys.Object.self, Person("ANN", "ADAMS")).title == "ADAMS")
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    model.add(try parser.parseRule("*true* => title = object.firstName ; high"))
    #expect(ctx.with(Keys.Object.self, Person("CAT", "COLE")).title == "CAT")
  }

  @Test func withoutTheCacheEveryLookUpWalks() throws {
    let ctx = try context(
      """
      *true* => title = object.lastName ; high
      *true* => title = object.firstName
      """)
    #expect(ctx.with(Keys.Object.self, Person("ANN", "ADAMS")).title == "ADAMS")
    let evaluations = ctx.engine.evaluationCount
    #expect(ctx.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    #expect(ctx.engine.evaluationCount == evaluations)
    let off = try context(
      """
      *true* => title = object.lastName ; high
      *true* => title = object.firstName
      """, cache: false)
    #expect(off.with(Keys.Object.self, Person("ANN", "ADAMS")).title == "ADAMS")
    let uncached = off.engine.evaluationCount
    #expect(off.with(Keys.Object.self, Person("BOB", "BAKER")).title == "BAKER")
    #expect(off.engine.evaluationCount == uncached + 1, "without the cache, every look-up walks")
  }
}
