import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

/// Shows stars for a number: a component of a test look.
struct Stars: D2SView {
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    Text(String(repeating: "*", count: min((KVC.unwrap(value) as? Int) ?? 0, 10)))
  }
}

@Suite struct LookTests {
  let registry = D2SContextKVC()

  func context(_ rules: String) throws -> RuleContext {
    try sakilaContext(rules, registry: registry)
  }

  @Test func looksProvideComponentsAndFallBackToBasicLook() throws {
    var ctx = try context(
      """
      *true* => look = 'StarLook'
      propertyKey = 'rentalDuration' => component = 'Stars'
      """)
    let looks = LookRegistry()
    looks.register(Stars(), as: "Stars", look: "StarLook")
    ctx.task = "inspect"
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    ctx.object = try ctx.database?.fetchObject("Film", primaryKey: [.int(1)])
    let page = try RenderEnvironment(looks: looks).renderPage(ctx)
    #expect(page.contains("Rental Duration    ******"))
    #expect(
      page.contains("Title              ACADEMY DINOSAUR"), "BasicLook's components for the rest")
    #expect(looks.catalog.map(\.look) == ["BasicLook", "StarLook"])
  }

  @Test func unknownComponentsNameTheLookAndTheComponent() throws {
    var ctx = try context("propertyKey = 'title' => component = 'Sparkles'")
    ctx.task = "inspect"
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    ctx.object = try ctx.database?.fetchObject("Film", primaryKey: [.int(1)])
    let error = #expect(throws: LookError.self) { try RenderEnvironment().renderPage(ctx) }
    #expect(error?.description == "no component 'Sparkles' in BasicLook")
    ctx.look = "FancyLook"
    let fancy = #expect(throws: LookError.self) { try RenderEnvironment().renderPage(ctx) }
    #expect(fancy?.description == "no component 'Sparkles' in look 'FancyLook' or in BasicLook")
  }

  @Test func theEditPageShowsChangesAndValidation() throws {
    var ctx = try context("")
    let session = try EditingSession.edit(
      try #require(try ctx.database?.fetchObject("Actor", primaryKey: [.int(1)])), in: ctx)
    try session.set("firstName", to: .string("PENNY"))
    try session.set("lastName", to: .null)
    ctx = session.context
    assertSnapshot(try RenderEnvironment().renderPage(ctx), named: "actor-edit")
  }
}
