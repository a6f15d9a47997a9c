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

/// A third-party look's plain component: the value through its formatter, declared so.
struct LedgerAmount: FormattedValueComponent {
  var alignment: CellAlignment { .trailing }
  var body: some D2SView { FormattedValue() }
}

/// The same view without the declaration: rendered per cell.
struct UndeclaredAmount: D2SView {
  var body: some D2SView { FormattedValue() }
}

extension LookTests {
  /// Payment's list of dates and amounts, the amount shown by LedgerLook's `Amount`.
  func ledgerContext() throws -> RuleContext {
    var ctx = try context(
      """
      *true* => look = 'LedgerLook'
      propertyKey = 'amount' => component = 'Amount'
      task = 'list' AND entity.name = 'Payment' => displayPropertyKeys = ('paymentDate', 'amount')
      """)
    ctx.task = "list"
    try ctx.setValue(.string("Payment"), forKeyNamed: "entity")
    return ctx
  }

  /// The fast path and alignment come from what a component declares, not from BasicLook's
  /// names: a plugin's `FormattedValueComponent` is resolved once per column.
  @Test func aLooksDeclaredValueComponentGetsTheListsFastPath() throws {
    let ctx = try ledgerContext()
    /// The page, and how many times the amount column's component was looked up.
    func render(_ amount: any D2SView) throws -> (page: String, lookups: Int) {
      let looks = LookRegistry()
      looks.register(amount, as: "Amount", look: "LedgerLook")
      ctx.engine.lookups.start()
      let page = try RenderEnvironment(looks: looks, list: ListRequest(limit: 1_000))
        .renderPage(ctx)
      let tallies = ctx.engine.lookups.stop().filter { $0.key == "component" }
      return (page, tallies.map(\.count).reduce(0, +))
    }
    let declared = try render(LedgerAmount())
    let undeclared = try render(UndeclaredAmount())
    #expect(declared.page.contains("2005-05-25 11:30:37    2.99\n"), "right-aligned")
    #expect(undeclared.page.contains("2005-05-25 11:30:37  2.99\n"))
    #expect(declared.lookups < 20, "\(declared.lookups) component look-ups for 1,000 rows")
    #expect(undeclared.lookups >= 1_000, "per cell: \(undeclared.lookups)")
  }
}

/// A value-styled amount: red when small, green when large; right-aligned without being a
/// `FormattedValueComponent` (whose list cells keep one style).
struct TrafficLightAmount: AlignedComponent {
  @Environment(\.propertyValue) var value
  var alignment: CellAlignment { .trailing }
  var body: some D2SView {
    FormattedValue().foregroundStyle(
      (DatabaseValue(any: value)?.decimal ?? 0) >= 5 ? .green : .red)
  }
}

extension LookTests {
  /// Alignment and a per-value style are independent: a component whose style depends on the
  /// value declares its column's alignment, and each cell keeps its own style.
  @Test func aValueStyledComponentIsRightAlignedInATerminalList() throws {
    var ctx = try ledgerContext()
    let looks = LookRegistry()
    looks.register(TrafficLightAmount(), as: "Amount", look: "LedgerLook")
    let environment = RenderEnvironment(looks: looks, list: ListRequest(limit: 8))
    let page = try environment.renderPage(ctx)
    assertSnapshot(page, named: "payments-traffic-light")
    #expect(page.contains("2005-05-25 11:30:37    2.99\n"), "right-aligned")
    // Each value keeps its own style: JSON carries it per cell.
    ctx.platform = "json"
    let json = try environment.renderPage(ctx)
    #expect(json.contains(#""style":["green"]"#) && json.contains(#""style":["red"]"#))
  }
}
