import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

@Suite struct DefaultRulesTests {
  let registry = D2SContextKVC()

  func context(_ rules: String = "") throws -> RuleContext {
    try sakilaContext(rules, registry: registry)
  }

  @Test func everyBuiltinRuleParsesAndPrintsBack() throws {
    let engine = try D2SEngine.make(registry: registry)
    let builtin = try #require(engine.models.last)
    #expect(builtin.count > 60)
    // A builtin model skips the conflict check at start; the same rules in a user's model are
    // checked, and none conflicts with another.
    let checked = RuleModel(origin: .user)
    try checked.load(DefaultRules.text, file: "builtin", parser: engine.parser)
    #expect(checked.count == builtin.count)
    #expect(checked.warnings.isEmpty, "\(checked.warnings)")
    for numbered in builtin.rules {
      #expect(try engine.parser.parseRule(numbered.rule.description) == numbered.rule)
    }
  }

  @Test func enginesFromRuleText() throws {
    let engine = try D2SEngine.make(
      ruleText: "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'", registry: registry)
    #expect(engine.ruleModel.count == 1)
    #expect(throws: RuleFileError.self) {
      try D2SEngine.make(ruleText: "titel = 'x'", registry: registry)
    }
  }

  @Test func prettyNames() {
    #expect(D2SComputations.prettify("lastName") == "Last Name")
    #expect(D2SComputations.prettify("customerID") == "Customer ID")
    #expect(D2SComputations.prettify("id") == "Id")
    #expect(D2SComputations.prettify("URLPath") == "URL Path")
    #expect(D2SComputations.prettify("address.phone") == "Address Phone")
    #expect(D2SComputations.prettify("first_name") == "First Name")
  }

  @Test func modelEntityAttributeAndValueFollowTheContext() throws {
    var ctx = try context()
    #expect(ctx.model.entities.count == 21)
    #expect(ctx.visibleEntityNames.first == "Actor")
    #expect(ctx.title == "sakila", "no entity: the database name")
    try ctx.setValue(.string("Customer"), forKeyNamed: "entity")
    ctx.task = "list"
    #expect(ctx.title == "Customer")
    #expect(
      ctx.displayPropertyKeys == [
        "store", "firstName", "lastName", "email", "address", "active", "createDate", "lastUpdate",
      ], "to-ones by their titles, where their foreign keys are")
    let row = ctx.with(\.propertyKey, "lastName").with(
      \.object, try ctx.database?.fetchObject("Customer", primaryKey: [.int(1)]))
    #expect(row.attribute?.name == "lastName")
    #expect(row.relationship == nil)
    #expect(row.propertyValue as? String == "SMITH")
    #expect(row.displayNameForProperty == "Last Name")
    #expect(row.component?.name == "DisplayString")
    #expect(row.title == "MARY SMITH", "an object's default title: first and last name")
    #expect(row.with(\.propertyKey, "address.phone").propertyValue as? String == "28303384290")
    #expect(row.with(\.propertyKey, "address.phone").displayNameForProperty == "Address Phone")
  }

  @Test func componentsAndFormattersByTypeAndTask() throws {
    var ctx = try context()
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    func answer(_ task: String, _ property: String) -> (String?, String?) {
      let row = ctx.with(\.task, task).with(\.propertyKey, property)
      return (row.component?.name, row.formatter?.name)
    }
    #expect(answer("inspect", "title").0 == "DisplayString")
    #expect(answer("inspect", "description").0 == "DisplayLargeString")
    #expect(answer("inspect", "length") == ("DisplayNumber", "integer"))
    #expect(answer("inspect", "replacementCost") == ("DisplayNumber", "decimal"))
    #expect(answer("inspect", "lastUpdate") == ("DisplayDate", "dateTime"))
    #expect(answer("inspect", "language").0 == "DisplayToOne")
    #expect(answer("inspect", "filmActors").0 == "DisplayToMany")
    #expect(answer("edit", "title").0 == "EditString")
    #expect(answer("edit", "length").0 == "EditNumber")
    #expect(answer("edit", "lastUpdate").0 == "EditDate")
    #expect(answer("edit", "language").0 == "EditToOne")
    #expect(answer("inspect", "actors").0 == "DisplayToMany")
    let inspected = ctx.with(\.task, "inspect").displayPropertyKeys
    #expect(
      inspected.suffix(3) == ["actors", "categories", "inventories"],
      "a link's to-many gives way to the flattened one")
    #expect(!ctx.with(\.task, "edit").displayPropertyKeys.contains("filmActors"))
    #expect(ctx.with(\.task, "edit").displayPropertyKeys.contains("language"))
    #expect(!ctx.with(\.task, "edit").displayPropertyKeys.contains("languageId"))
    #expect(ctx.with(\.task, "list").page?.name == "QueryList")
    #expect(ctx.with(\.task, "list").nextTask == "inspect")
    #expect(ctx.with(\.task, "edit").displayStringForNil == "")
    // A link table lists its to-one relationships first; other tables keep their attributes.
    try ctx.setValue(.string("FilmActor"), forKeyNamed: "entity")
    #expect(ctx.with(\.task, "list").displayPropertyKeys == ["actor", "film", "lastUpdate"])
    try ctx.setValue(.string("Rental"), forKeyNamed: "entity")
    #expect(
      ctx.with(\.task, "list").displayPropertyKeys == [
        "rentalDate", "inventory", "customer", "returnDate", "staff", "lastUpdate",
      ])
  }

  @Test func passwordsAreNeverEditedOrShown() throws {
    var ctx = try context()
    try ctx.setValue(.string("Staff"), forKeyNamed: "entity")
    #expect(
      ctx.with(\.task, "edit").with(\.propertyKey, "password").component?.name == "DisplayPassword")
    #expect(
      ctx.with(\.task, "inspect").with(\.propertyKey, "password").component?.name
        == "DisplayPassword")
  }

  @Test func permissionsFollowReadOnlyNamesAndViews() throws {
    var ctx = try context("*true* => readOnlyEntityNames = ('Staff')")
    try ctx.setValue(.string("Staff"), forKeyNamed: "entity")
    #expect(ctx.isEntityReadOnly)
    #expect(!ctx.isObjectEditable)
    #expect(!ctx.isObjectDeletable)
    try ctx.setValue(.string("Actor"), forKeyNamed: "entity")
    #expect(ctx.isObjectEditable && ctx.isObjectDeletable)
    try ctx.setValue(.string("CustomerList"), forKeyNamed: "entity")
    #expect(ctx.isEntityReadOnly, "views are read-only")
  }

  @Test func userRulesBeatBuiltinOnes() throws {
    var ctx = try context(
      """
      entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
      propertyKey = 'replacementCost' => formatter = 'currency'
      """)
    try ctx.setValue(.string("Actor"), forKeyNamed: "entity")
    #expect(ctx.displayNameForEntity == "Moviestars")
    #expect(ctx.title == "Moviestars")
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    #expect(ctx.with(\.propertyKey, "replacementCost").formatter?.name == "currency")
    let explanation = try ctx.with(\.propertyKey, "replacementCost").explain(keyNamed: "formatter")
    #expect(
      explanation.showLine
        == "formatter = 'currency'  # rule 2: propertyKey = 'replacementCost' => formatter = 'currency'"
    )
  }

  @Test func theLoginEntityIsStaff() throws {
    let ctx = try context().with(\.task, "login")
    #expect(ctx.entity?.name == "Staff")
    #expect(ctx.navigationBarTitle == "Login")
  }
}
