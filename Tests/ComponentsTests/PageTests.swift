import D2SModel
import D2STesting
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import Qualifiers
import RuleCore
import Testing

@testable import Components

/// The upstream demo's customisations, applied to Sakila, change the rendered text as a user
/// would expect (snapshot files under Snapshots/).
@Suite struct PageTests {
  let registry = D2SContextKVC()

  func context(_ rules: String = "") throws -> RuleContext {
    try sakilaContext(rules, registry: registry)
  }

  func page(
    _ context: RuleContext, task: String, entity: String? = nil, object: [DatabaseValue]? = nil,
    list: ListRequest = ListRequest()
  ) throws -> String {
    var context = context
    context.task = task
    if let entity { try context.setValue(.string(entity), forKeyNamed: "entity") }
    if let object, let entity {
      context.object = try context.database?.fetchObject(entity, primaryKey: object)
    }
    return try RenderEnvironment(width: 100, list: list).renderPage(context)
  }

  @Test func visibleEntitiesAndDisplayNames() throws {
    let ctx = try context(
      """
      *true* => visibleEntityNames = ('Customer', 'Actor', 'Film', 'Store', 'Staff')
      entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
      """)
    assertSnapshot(try page(ctx, task: "query"), named: "entities-customised")
    assertSnapshot(try page(try context(), task: "query"), named: "entities-default")
  }

  @Test func customerListWithPhones() throws {
    let ctx = try context(
      """
      task = 'list' AND entity.name = 'Customer' => displayPropertyKeys = ('firstName', 'address.phone')
      propertyKey = 'address.phone' => displayNameForProperty = 'Phone'
      """)
    assertSnapshot(
      try page(ctx, task: "list", entity: "Customer", list: ListRequest(limit: 5)),
      named: "customers-phones")
  }

  @Test func formattersChosenByRules() throws {
    let ctx = try context(
      """
      propertyKey = 'replacementCost' => formatter = 'currency'
      propertyKey = 'length' AND task != 'edit' => formatter = 'minutesDuration'
      """)
    let list = ListRequest(qualifier: try QualifierParser.parse("id <= 3"))
    assertSnapshot(
      try page(ctx, task: "list", entity: "Film", list: list), named: "films-formatted")
    assertSnapshot(
      try page(ctx, task: "inspect", entity: "Film", object: [.int(1)]), named: "film-inspect")
  }
}

extension PageTests {
  @Test func objectTitlesFromRules() throws {
    let ctx = try context("entity.name = 'Customer' => title = object.lastName")
    assertSnapshot(
      try page(ctx, task: "inspect", entity: "Customer", object: [.int(1)]),
      named: "customer-inspect-title")
  }

  @Test func debugViews() throws {
    let ctx = try context("*true* => debug = true")
    let list = ListRequest(limit: 2)
    assertSnapshot(
      try page(ctx, task: "list", entity: "Language", list: list), named: "languages-debug")
    assertSnapshot(try page(ctx, task: "query"), named: "entities-debug")
    assertSnapshot(
      try page(ctx, task: "inspect", entity: "Film", object: [.int(1)]), named: "film-inspect-debug"
    )
  }

  @Test func debugTagsAreTheCapitalsOfTheComponentName() {
    #expect(ComponentName("DisplayString").debugTag == "DS")
    #expect(ComponentName("EditLargeString").debugTag == "ELS")
    #expect(ComponentName("DisplayURL").debugTag == "DURL")
    #expect(ComponentName("stars").debugTag == "stars")
  }

  @Test func readOnlyStaffInspects() throws {
    let ctx = try context("readOnlyEntityNames = ('Staff')")
    assertSnapshot(
      try page(ctx, task: "inspect", entity: "Staff", object: [.int(1)]), named: "staff-inspect")
  }

  /// A list page asks the rules once per column for answers that do not depend on the row.
  @Test func listPagesEvaluateRulesPerColumnNotPerCell() throws {
    let ctx = try context(
      """
      propertyKey = 'replacementCost' => formatter = 'currency'
      entity.name = 'Rental' AND task = 'list' => displayPropertyKeys = ('rentalDate', 'returnDate', 'staff', 'lastUpdate')
      """)
    _ = try page(ctx, task: "list", entity: "Film", list: ListRequest(limit: 1))
    let before = ctx.engine.evaluationCount
    let text = try page(ctx, task: "list", entity: "Rental", list: ListRequest(limit: 1_000))
    let evaluations = ctx.engine.evaluationCount - before
    #expect(text.contains("1–1000 of 16044"))
    #expect(text.contains("Mike Hillyer") && text.contains("Jon Stephens"))
    // A to-one's title is made once per related object (2 staff), not once per row.
    #expect(evaluations < 400, "\(evaluations) rule evaluations for 1,000 rows × 4 columns")
  }
}

/// The same pages from PostgreSQL's Sakila (copied from the test server's `sakila` database).
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
    "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLPageTests {
  let registry = D2SContextKVC()

  func context(_ rules: String) throws -> RuleContext {
    try D2SKeys.expose(in: registry)
    let engine = try D2SEngine.make(
      rules: RuleModel(try RuleParser(registry: registry).parseRules(rules)), registry: registry)
    var context = RuleContext(engine: engine)
    context.database = try Database(adaptor: PostgreSQLAdaptor(url: try PostgresSakila.copy()))
    return context
  }

  @Test func customerListWithPhones() throws {
    var ctx = try context(
      """
      task = 'list' AND entity.name = 'Customer' => displayPropertyKeys = ('firstName', 'address.phone')
      propertyKey = 'address.phone' => displayNameForProperty = 'Phone'
      """)
    ctx.task = "list"
    try ctx.setValue(.string("Customer"), forKeyNamed: "entity")
    let text = try RenderEnvironment(width: 100, list: ListRequest(limit: 5)).renderPage(ctx)
    // PostgreSQL's Sakila has blank phone numbers.
    assertSnapshot(text, named: "customers-phones-postgresql")
  }

  func page(
    _ ctx: RuleContext, task: String, entity: String, object: [DatabaseValue]? = nil,
    list: ListRequest = ListRequest()
  )
    throws -> String
  {
    var ctx = ctx
    ctx.task = task
    try ctx.setValue(.string(entity), forKeyNamed: "entity")
    if let object { ctx.object = try ctx.database?.fetchObject(entity, primaryKey: object) }
    // The copy's database name stands in the title of pages without an entity only.
    return try RenderEnvironment(width: 100, list: list).renderPage(ctx)
  }

  @Test func theOtherAcceptanceSets() throws {
    let formatted = try context(
      """
      propertyKey = 'replacementCost' => formatter = 'currency'
      propertyKey = 'length' AND task != 'edit' => formatter = 'minutesDuration'
      """)
    assertSnapshot(
      try page(formatted, task: "inspect", entity: "Film", object: [.int(1)]),
      named: "film-inspect-postgresql")
    let titled = try context("entity.name = 'Customer' => title = object.lastName")
    assertSnapshot(
      try page(titled, task: "inspect", entity: "Customer", object: [.int(1)]),
      named: "customer-inspect-title-postgresql")
    let readOnly = try context("readOnlyEntityNames = ('Staff')")
    assertSnapshot(
      try page(readOnly, task: "inspect", entity: "Staff", object: [.int(1)]),
      named: "staff-inspect-postgresql")
    let debug = try context("*true* => debug = true")
    assertSnapshot(
      try page(debug, task: "list", entity: "Language", list: ListRequest(limit: 2)),
      named: "languages-debug-postgresql")
  }

  @Test func visibleEntitiesAndDisplayNames() throws {
    var ctx = try context(
      """
      *true* => visibleEntityNames = ('Customer', 'Actor', 'Film', 'Store', 'Staff')
      entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
      """)
    ctx.task = "query"
    // The same entities as from SQLite; the title is the copy's database name.
    let body = try RenderEnvironment().renderPage(ctx).split(
      separator: "\n", omittingEmptySubsequences: false
    ).dropFirst(2)
    assertSnapshot("sakila\n======\n" + body.joined(separator: "\n"), named: "entities-customised")
  }
}
