import EnvKeys
import Foundation
import Testing

@testable import RuleCore

@Suite struct ResolutionTests {
  @Test func defaultWhenNothingMatches() throws {
    let ctx = try context("task = 'edit' => title = 'Editing'")
    #expect(ctx.title == "D2S")
    #expect(try ctx.resolution(forKeyNamed: "title").source == .defaultValue)
  }

  @Test func explicitBeatsRulesEvenImportantOnes() throws {
    var ctx = try context("*true* => title = 'From rule' ; important")
    #expect(ctx.title == "From rule")
    ctx.title = "Mine"
    #expect(ctx.title == "Mine")
    #expect(try ctx.resolution(forKeyNamed: "title").source == .explicit)
  }

  @Test func priorityBeatsComplexity() throws {
    let ctx = try context(
      """
      task = 'edit' AND propertyKey = 'x' => title = 'complex'
      task = 'edit' => title = 'high' ; high
      """
    ).with(\.task, "edit").with(\.propertyKey, "x")
    #expect(ctx.title == "high")
  }

  @Test func complexityBeatsInsertionOrder() throws {
    let ctx = try context(
      """
      task = 'edit' AND propertyKey = 'x' => title = 'complex'
      task = 'edit' => title = 'simple'
      """
    ).with(\.task, "edit").with(\.propertyKey, "x")
    #expect(ctx.title == "complex")
  }

  @Test func laterAddedWinsATieAndTheWarningNamesBoth() throws {
    let registry = TestRegistry.make()
    let model = RuleModel()
    let parser = RuleParser(registry: registry)
    model.add(try parser.parseRule("task = 'edit' => title = 'first'"))
    let (id, warnings) = model.add(try parser.parseRule("task = 'edit' => title = 'second'"))
    #expect(id == 2)
    #expect(warnings.count == 1)
    #expect(
      warnings.first?.description
        == "warning: rule 2 (task = 'edit' => title = 'second') and rule 1 (task = 'edit' => title = 'first') have the same condition and priority but assign different values; rule 2 wins because it was added later"
    )
    let ctx = RuleContext(engine: try RuleEngine(ruleModel: model, registry: registry)).with(
      \.task, "edit")
    #expect(ctx.title == "second")
  }

  @Test func sameConditionInOtherOrderStillWarns() throws {
    let parser = RuleParser(registry: TestRegistry.make())
    let model = RuleModel()
    model.add(try parser.parseRule("task = 'edit' AND propertyKey = 'a' => title = 'x'"))
    #expect(
      model.add(try parser.parseRule("propertyKey = 'a' AND task = 'edit' => title = 'y'")).warnings
        .count == 1)
    #expect(
      model.add(try parser.parseRule("propertyKey = 'a' AND task = 'edit' => title = 'y' ; high"))
        .warnings.isEmpty)
    #expect(model.add(try parser.parseRule("task = 'list' => title = 'y'")).warnings.isEmpty)
  }

  @Test func fallbackModelsOnlyWhenNoOwnRuleMatches() throws {
    let ctx = try context(
      "task = 'edit' => title = 'own' ; fallback",
      fallbacks: ["*true* => title = 'builtin' ; important", "*true* => nextTask = 'inspect'"])
    #expect(
      ctx.with(\.task, "edit").title == "own",
      "an own rule at fallback beats a fallback model's important rule")
    #expect(ctx.with(\.task, "list").title == "builtin")
    #expect(ctx.nextTask == "inspect")
    let source = try ctx.with(\.task, "list").resolution(forKeyNamed: "title").source
    #expect(source.description == "builtin rule 1: *true* => title = 'builtin' ; important")
  }

  @Test func contextsScopeLikeEnvironments() throws {
    let root = try context("*true* => displayNameForProperty = propertyKey")
    var child = root
    child.propertyKey = "lastName"
    let grandchild = child.with(\.task, "edit")
    var sibling = root
    sibling.propertyKey = "firstName"
    let middle = grandchild.with(\.displayNameForProperty, "Override")
    let below = middle.with(\.propertyKey, "other")

    #expect(root.displayNameForProperty == "")
    #expect(child.displayNameForProperty == "lastName")
    #expect(grandchild.displayNameForProperty == "lastName")
    #expect(sibling.displayNameForProperty == "firstName")
    #expect(middle.displayNameForProperty == "Override")
    #expect(
      below.displayNameForProperty == "Override", "an explicit value in the middle holds below it")
    #expect(child.displayNameForProperty == "lastName", "the override did not reach the parent")
  }

  @Test func keyPathValuesAreEvaluatedAtLookup() throws {
    let ctx = try context(
      """
      *true* => displayNameForProperty = propertyKey
      entity.name = 'Customer' => title = object.lastName
      *true* => navigationBarTitle = title
      *true* => isObjectEditable = NOT isEntityReadOnly
      """)
    let customer = ctx.with(Keys.Entity.self, TestEntity("Customer")).with(
      Keys.Object.self, Person("MARY", "SMITH"))
    #expect(customer.title == "SMITH")
    #expect(customer.navigationBarTitle == "SMITH")
    #expect(customer.with(\.propertyKey, "phone").displayNameForProperty == "phone")
    #expect(customer.isObjectEditable)
    #expect(!customer.with(\.isEntityReadOnly, true).isObjectEditable)
  }

  @Test func nilOrMistypedKeyPathValuesSkipTheRule() throws {
    let ctx = try context(
      """
      *true* => title = 'fallback title'
      entity.name = 'Customer' => title = object.lastName
      task = 'count' => title = count
      """
    ).with(Keys.Entity.self, TestEntity("Customer"))
    let nameless = ctx.with(Keys.Object.self, Person("CHER", nil))
    #expect(nameless.title == "fallback title")
    let explanation = try nameless.explain(keyNamed: "title")
    #expect(
      explanation.entries.map(\.status.description) == [
        "not matched", "skipped: object.lastName is nil", "matched",
      ], "task = 'count' was added later: it ranks first")
    let counting = ctx.with(\.task, "count").with(Keys.Entity.self, TestEntity("Film"))
    #expect(counting.title == "fallback title", "an Int does not fit a String key")
    #expect(
      try counting.explain(keyNamed: "title").entries.first?.status
        == .skipped("value 0 does not fit String"))
  }

  @Test func nilFitsOptionalKeys() throws {
    let ctx = try context(
      """
      *true* => note = 'x' ; low
      *true* => note = object.lastName
      """
    ).with(Keys.Object.self, Person("CHER", nil))
    #expect(ctx.note == nil)
    #expect(try ctx.resolution(forKeyNamed: "note").source != .defaultValue)
  }

  @Test func cyclesStopWithTheChain() throws {
    let ctx = try context(
      """
      *true* => title = navigationBarTitle
      *true* => navigationBarTitle = title
      """)
    let error = #expect(throws: RuleCycleError.self) { try ctx.resolve(Keys.Title.self) }
    #expect(error?.chain == ["title", "navigationBarTitle", "title"])
    #expect(
      error?.description
        == "rule cycle: title → navigationBarTitle → title (a rule's value needs the key it assigns)"
    )
    #expect(ctx.title == "D2S", "typed reads fall back to the default instead of crashing")
    let selfCycle = try context("*true* => title = title")
    #expect(throws: RuleCycleError.self) { try selfCycle.resolve(Keys.Title.self) }
  }

  @Test func cyclesThroughPredicates() throws {
    let ctx = try context(
      """
      title = 'x' => navigationBarTitle = 'y'
      navigationBarTitle = 'y' => title = 'x'
      """)
    let error = #expect(throws: RuleCycleError.self) { try ctx.resolve(Keys.Title.self) }
    #expect(error?.chain == ["title", "navigationBarTitle", "title"])
  }

  @Test func sameKeyInAnotherContextIsNoCycle() throws {
    let ctx = try context(
      "*true* => title = displayNameForEntity\n*true* => displayNameForEntity = 'Films'")
    #expect(ctx.title == "Films")
  }

  @Test func membershipInAKeysList() throws {
    let ctx = try context(
      """
      entity.name in readOnlyEntityNames => isEntityReadOnly = true
      *true* => readOnlyEntityNames = ('Staff')
      """)
    #expect(ctx.with(Keys.Entity.self, TestEntity("Staff")).isEntityReadOnly)
    #expect(!ctx.with(Keys.Entity.self, TestEntity("Film")).isEntityReadOnly)
  }

  @Test func entitiesCompareToTheirNames() throws {
    let ctx = try context("entity = 'Film' => displayNameForEntity = 'Movies'")
    #expect(ctx.with(Keys.Entity.self, TestEntity("Film")).displayNameForEntity == "Movies")
  }

  @Test func resultsDoNotDependOnTheCache() throws {
    let rules = """
      *true* => title = 'D'
      entity.name = 'Customer' => title = object.lastName
      object.firstName = 'STEVE' => isObjectEditable = false
      *true* => isObjectEditable = NOT isEntityReadOnly
      """
    let people = [Person("STEVE", "A"), Person("MARY", "B"), Person("STEVE", nil)]
    for cache in [true, false] {
      let ctx = try context(rules, cache: cache).with(Keys.Entity.self, TestEntity("Customer"))
      let titles = people.map { ctx.with(Keys.Object.self, $0).title }
      let editable = people.map { ctx.with(Keys.Object.self, $0).isObjectEditable }
      #expect(titles == ["A", "B", "D"])
      #expect(editable == [false, true, false])
    }
  }
}
