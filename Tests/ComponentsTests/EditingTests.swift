import D2SModel
import D2STesting
import EnvKeys
import Foundation
import RuleCore
import Testing

@testable import Components

@Suite struct EditingTests {
  let registry = D2SContextKVC()

  func context(_ rules: String = "") throws -> RuleContext {
    try sakilaContext(rules, registry: registry)
  }

  func fetch(_ ctx: RuleContext, _ entity: String, _ id: Int) throws -> DatabaseObject {
    try #require(try ctx.database?.fetchObject(entity, primaryKey: [.int(id)]))
  }

  @Test func objectRulesProtectSteveEvenWhenRenamed() throws {
    let ctx = try context("object.firstName = 'STEVE' => isObjectEditable = false")
    let database = try #require(ctx.database)
    let steve = try #require(
      try database.fetch(
        FetchSpecification(
          entityName: "Customer", qualifier: .comparison("firstName", .equal, .string("STEVE")))
      ).first)
    #expect(throws: PermissionError.self) { try EditingSession.edit(steve, in: ctx) }

    // Rules judge the fetched values too: renaming him does not unlock the save.
    let sneaky = try EditingSession.edit(try fetch(ctx, "Customer", 1), in: ctx)
    #expect(throws: Never.self) { try sneaky.set("firstName", to: .string("STEVE")) }
    let error = #expect(throws: PermissionError.self) { try sneaky.save() }
    #expect(error?.description.contains("may not be saved") == true)
    sneaky.revert()

    let mary = try EditingSession.edit(try fetch(ctx, "Customer", 1), in: ctx)
    try mary.set("lastName", to: .string("SMYTHE"))
    try mary.save()
    #expect(try fetch(ctx, "Customer", 1).value(forKey: "lastName") as? String == "SMYTHE")
  }

  @Test func readOnlyEntitiesCanBeInspectedNotEditedOrDeleted() throws {
    let ctx = try context("readOnlyEntityNames = ('Staff')")
    let mike = try fetch(ctx, "Staff", 1)
    #expect(throws: PermissionError.self) { try EditingSession.edit(mike, in: ctx) }
    #expect(throws: PermissionError.self) { try EditingSession.new("Staff", in: ctx) }
    #expect(throws: PermissionError.self) { try EditingSession.delete(mike, in: ctx) }
    var inspect = ctx
    inspect.task = "inspect"
    inspect.entity = mike.entity
    inspect.object = mike
    #expect(try RenderEnvironment().renderPage(inspect).contains("Mike"))
  }

  @Test func explicitPermissionsOnlyNarrow() throws {
    var ctx = try context("object.firstName = 'STEVE' => isObjectEditable = false")
    ctx.isObjectEditable = true
    let steve = try #require(
      try ctx.database?.fetch(
        FetchSpecification(
          entityName: "Customer", qualifier: .comparison("firstName", .equal, .string("STEVE")))
      ).first)
    #expect(throws: PermissionError.self) { try EditingSession.edit(steve, in: ctx) }
    ctx.isObjectEditable = false
    #expect(throws: PermissionError.self) {
      try EditingSession.edit(try fetch(ctx, "Customer", 1), in: ctx)
    }
  }

  @Test func valuesAreCoercedThroughTypesAndFormatters() throws {
    let ctx = try context("propertyKey = 'replacementCost' => formatter = 'currency'")
    let film = try EditingSession.edit(try fetch(ctx, "Film", 1), in: ctx)
    try film.set("replacementCost", to: .string("$19.99"))
    try film.set("length", to: .int(90))
    #expect(throws: FormatterError.self) { try film.set("length", to: .string("long")) }
    #expect(throws: DatabaseError.self) { try film.set("length", to: .bool(true)) }
    #expect(throws: FormatterError.self) { try film.set("replacementCost", to: .string("cheap")) }
    try film.set("language", to: .int(2))
    #expect(film.object.changedKeys == ["languageId", "length", "replacementCost"])
    try film.save()
    let saved = try fetch(ctx, "Film", 1)
    #expect(saved.value(forKey: "replacementCost") as? Decimal == Decimal(string: "19.99"))
    #expect(saved.value(forKeyPath: "language.name") as? String == "Italian")
  }

  @Test func newObjectsGetInitialValuesAndTimestamps() throws {
    let ctx = try context(
      """
      entity.name = 'Actor' => initialPropertyValues = { firstName = 'NEW'; lastName = 'ACTOR' }
      """)
    let session = try EditingSession.new("Actor", in: ctx)
    #expect(session.object.value(forKey: "firstName") as? String == "NEW")
    let page = try RenderEnvironment().renderPage(session.context)
    #expect(page.contains("[NEW] (changed)"))
    try session.save()
    #expect(session.object.value(forKey: "id") as? Int == 201)
  }

  @Test func deletesHonourTheRules() throws {
    let ctx = try context(
      "entity.name = 'Language' AND object.name = 'English' => isObjectDeletable = false")
    #expect(throws: PermissionError.self) {
      try EditingSession.delete(try fetch(ctx, "Language", 1), in: ctx)
    }
    let link = try #require(
      try ctx.database?.fetchObject("FilmActor", primaryKey: [.int(1), .int(1)]))
    try EditingSession.delete(link, in: ctx)
    #expect(try ctx.database?.fetchObject("FilmActor", primaryKey: [.int(1), .int(1)]) == nil)
  }
}
