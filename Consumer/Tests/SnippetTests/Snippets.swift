// swift-format-ignore-file
// Generated from the Swift snippets of README.md and Documentation/*.md by
// Tests/D2STestingTests/DocumentationSnippetTests.swift: do not edit; rewrite it with
// D2S_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests.
import AuditKeys
import Components
import D2S
import D2SModel
import D2SREPL
import D2STesting
import D2SWeb
import EnvKeys
import Foundation
import Plugins
import Qualifiers
import RatingComponents
import RuleCore
import SQLiteAdaptor
import TSVPlatform
import Testing

// README.md:87
@Test func snippet1() async throws {

  enum TaskKey: DynamicEnvironmentKey { static var defaultValue: String { "query" } }
  enum TitleKey: DynamicEnvironmentKey { static var defaultValue: String { "D2S" } }
  try D2SContextKVC.expose(TaskKey.self, "task")
  try D2SContextKVC.expose(TitleKey.self, "title")

  let model = RuleModel(try RuleParser().parseRules("task = 'edit' => title = 'Editing'"))
  let context = try RuleContext(ruleModel: model).with(TaskKey.self, "edit")
  print(context[TitleKey.self])                        // Editing
  print(try context.explain(keyNamed: "title"))        // every candidate, the winner, the source
}

// README.md:142
@Test func snippet2() async throws {
  var context = RuleContext(engine: try D2SEngine.make(registry: D2SContextKVC()))
  context.database = try TestDatabases.sakila()
  let pages = PageApplication(base: context)          // context: a rule context with the database
  let films = try pages.render(
    PageRequest(task: "list", entityName: "Film", list: ListRequest(limit: 20), platform: "json"))
  print(films)                                        // {"page":"QueryList",…,"rows":[…]}
}

// README.md:160
enum Snippet3 {
  public struct DisplayStars: D2SView {
    @Environment(\.propertyValue) var value
    public init() {}
    public var body: some D2SView {
      let stars = min(max((value as? Int) ?? 0, 0), 5)
      Text(String(repeating: "★", count: stars) + String(repeating: "☆", count: 5 - stars))
    }
  }
  // installed by a plugin: PluginComponent(look: "BasicLook", DisplayStars()),
  // with ruleText "propertyKey = 'rentalDuration' AND task != 'edit' => component = 'DisplayStars'"; then
  // D2SREPLCommand.main(plugins: [StarsPlugin()]) or await D2SServeCommand.main(plugins: […])
}
@Test func snippet3() { #expect(Snippet3.self == Snippet3.self) }

// Documentation/Library.md:7
func snippet4() async throws {

  let database = try Database(adaptor: SQLiteAdaptor(path: "sakila.db"))   // or PostgreSQLAdaptor(url: "postgresql://…")
  let rentals = try database.fetch(FetchSpecification(
    entityName: "Rental", qualifier: try QualifierParser.parse("customer.lastName like 'S*'"),
    sortOrderings: [SortOrdering("rentalDate", ascending: false)], limit: 20,
    prefetchKeyPaths: ["customer.lastName", "inventory.film.title"]))      // one batched query per relationship
  print(rentals.count)
}

// Documentation/Plugins.md:157
enum Snippet9 {
  struct TrafficLights: D2SPlugin {
    let name = "TrafficLights"
    var formatters: [String: any ValueFormatter] { ["percent": OutOfFiveFormatter()] }
    /// Replaces the builtin `percent` everywhere its rules name it.
    var replacedFormatters: Set<String> { ["percent"] }
  }
}
@Test func snippet9() { #expect(Snippet9.self == Snippet9.self) }

// Documentation/Plugins.md:209
enum Snippet12 {
  public struct MyPlugin: D2SPlugin {
    public init() {}
    /// Unique among installed plugins.
    public let name = "MyPlugin"
    /// Exposes the plugin's keys (and nothing else).
    public func exposeKeys(in registry: D2SContextKVC) throws {
      try registry.expose(AuditLabelKey.self)
    }
    /// Components, each under a look and its type's name (`replaces: true` to replace
    /// another plugin's).
    public var components: [PluginComponent] {
      [PluginComponent(look: "BasicLook", DisplayStars())]
    }
    /// Formatters by name, for `formatter = 'outOfFive'`.
    public var formatters: [String: any ValueFormatter] { ["outOfFive": OutOfFiveFormatter()] }
    /// Names among `formatters` that replace another plugin's formatter (none here).
    public var replacedFormatters: Set<String> { [] }
    /// Renderers by platform.
    public var renderers: [PluginRenderer] { [PluginRenderer("tsv") { _ in TSVRenderer() }] }
    /// Rules as text; or a file shipped with the package, `ruleResource` (below).
    public var ruleText: String? { "propertyKey = 'rating' AND task != 'edit' => component = 'DisplayStars'" }
    /// A rules file of the package's resources, read at install (none here).
    public var ruleResource: PluginResource? { nil }
    /// Rules in Swift, after the text rules.
    public var rules: RuleModel {
      [
        \.entity?.name == "Payment" => \.auditLabel <= "money",
        \.propertyKey == "rentalDuration" && \.task != "edit" => \.component <= DisplayStars(),
      ]
    }
  }
}
@Test func snippet12() { #expect(Snippet12.self == Snippet12.self) }

// Documentation/Plugins.md:251
enum Snippet13 {
  public var ruleResource: PluginResource? {
    PluginResource("rating.d2s", package: "RatingComponents", target: "RatingComponents")
  }
}
@Test func snippet13() { #expect(Snippet13.self == Snippet13.self) }

// Documentation/Plugins.md:297
func snippet15() async throws {

  await D2SServeCommand.main(plugins: [AuditKeysPlugin(), RatingComponentsPlugin()])
}

// Documentation/Views.md:40
@Test func snippet19() async throws {

  /// Shows a date as the days since it, by the clock of the scope it runs in.
  struct DaysAgoFormatter: ValueFormatter {
    @Dependency(\.clock) var clock

    func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
      guard case .date(let date) = value else { return value.storedText() }
      return "\(Int(clock.now.timeIntervalSince(date) / 86_400)) days ago"
    }

    func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
      throw FormatterError(formatter: "daysAgo", text: text, accepted: "a date")
    }
  }

  let moment = Date(timeIntervalSince1970: 86_400 * 3)
  let text = withDependencies { $0.clock = .fixed(moment) } operation: {
    DaysAgoFormatter().format(.date(Date(timeIntervalSince1970: 0)), for: nil)
  }
  precondition(text == "3 days ago")
}

// Documentation/Views.md:70
enum Snippet20 {

  struct DisplayBool: D2SView {
    @Environment(\.propertyValue) var value
    var body: some D2SView { Text((value as? Bool) == true ? "✓" : "✗") }
  }
}
@Test func snippet20() { #expect(Snippet20.self == Snippet20.self) }

// Documentation/Views.md:84
@Test func snippet21() async throws {
  let price = DatabaseValue.decimal(Decimal(string: "12.50")!)  // PostgreSQL: .verbatim("12.50")
  #expect(price.decimal == Decimal(string: "12.5"))
  #expect(price.double == 12.5)
  #expect(price.int == nil)                       // not a whole number
  #expect(DatabaseValue.int(3).decimal == 3)
  #expect(DatabaseValue.int(1).bool == true)      // SQLite keeps booleans as 0 and 1
  #expect(DatabaseValue.string("PG-13").text == "PG-13")
  #expect(DatabaseValue.null.text == nil)
}

// Documentation/Views.md:114
enum Snippet22 {
  struct PriceBand: AlignedComponent {
    @Environment(\.propertyValue) var value
    var alignment: CellAlignment { .trailing }
    var isHigh: Bool { (DatabaseValue(any: value)?.decimal ?? 0) >= 4 }
    var body: some D2SView { FormattedValue().foregroundStyle(isHigh ? .green : .secondary) }
  }
}
@Test func snippet22() { #expect(Snippet22.self == Snippet22.self) }

// Documentation/Views.md:155
enum Snippet23 {
  struct RatingFlag: D2SView {
    var body: some D2SView { FormattedValue().bold().foregroundStyle(.red) }
  }
}
@Test func snippet23() { #expect(Snippet23.self == Snippet23.self) }

// Documentation/Views.md:191
enum Snippet24 {
  public struct TSVPlatformPlugin: D2SPlugin {
    public let name = "TSVPlatform"
    public var renderers: [PluginRenderer] { [PluginRenderer("tsv") { _ in TSVRenderer() }] }
  }
}
@Test func snippet24() { #expect(Snippet24.self == Snippet24.self) }

// Documentation/Views.md:261
enum Snippet25 {
  struct LedgerAmount: FormattedValueComponent {
    var alignment: CellAlignment { .trailing }
    var body: some D2SView { FormattedValue() }
  }
}
@Test func snippet25() { #expect(Snippet25.self == Snippet25.self) }

// Sources/D2STesting/D2STesting.docc/D2STesting.md:34
@Test func snippet26() async throws {
  let tester = try RuleTester(
    rules: "entity.name = 'Film' => displayNameForEntity = 'Movie'",
    database: try TestDatabases.sakila())
  let film = try tester.with(object: "Film", key: [.int(1)])
  let page = try film.render(task: "inspect")
  #expect(page.hasPrefix("ACADEMY DINOSAUR"))
  let json = try film.setting("platform", to: "'json'").render(task: "inspect")
  #expect(json.contains(#""entity":"Film""#))
  let list = try tester.render(task: "list", entity: "Film", list: ListRequest(limit: 2))
  #expect(list.hasPrefix("Movie\n"))
}
