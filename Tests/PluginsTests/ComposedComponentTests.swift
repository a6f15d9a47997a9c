import Components
import D2SModel
import D2STesting
import Plugins
import RuleCore
import Testing

/// A bar of blocks, then the formatted value: a component composed of two parts.
struct RateBar: D2SView {
  static let componentName = "DisplayRateBar"
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    HStack(spacing: 1) {
      Text(String(repeating: "█", count: 3))
      FormattedValue()
    }
  }
}

/// Two lines: the value, then a note under it.
struct NotedValue: D2SView {
  static let componentName = "DisplayNoted"
  var body: some D2SView {
    FormattedValue()
    Text("(per day)")
  }
}

struct RateBarPlugin: D2SPlugin {
  let name = "RateBar"
  var components: [PluginComponent] {
    [
      PluginComponent(look: "BasicLook", RateBar()),
      PluginComponent(look: "BasicLook", NotedValue()),
    ]
  }
  var ruleText: String? {
    """
    propertyKey = 'rentalRate' => component = 'DisplayRateBar'
    propertyKey = 'rentalDuration' => component = 'DisplayNoted'
    entity.name = 'Film' AND task = 'list' => displayPropertyKeys = ('title', 'rentalRate', 'rentalDuration')
    """
  }
}

/// A composed component keeps every part on every platform: the terminal and Markdown print
/// them all (a list cell on one line), JSON gives the value and a text of all parts.
@Suite struct ComposedComponentTests {
  func tester(_ platform: String) throws -> RuleTester {
    try RuleTester(plugins: [RateBarPlugin()], database: try TestDatabases.sakila())
      .setting("platform", to: "'\(platform)'")
      .with(object: "Film", key: [.int(1)])
  }

  @Test func theTerminalAndMarkdownShowEveryPart() throws {
    let inspect = try tester("terminal").render(task: "inspect", entity: "Film")
    #expect(inspect.contains("Rental Rate        ███ 0.99\n"), "\(inspect)")
    #expect(inspect.contains("Rental Duration    6\n                   (per day)\n"), "\(inspect)")
    let markdown = try tester("markdown").render(task: "inspect", entity: "Film")
    #expect(markdown.contains("███ 0.99"), "\(markdown)")
    #expect(markdown.contains("(per day)"), "\(markdown)")
  }

  @Test func aListCellJoinsItsPartsOnOneLine() throws {
    let list = ListRequest(limit: 1)
    let terminal = try tester("terminal").render(task: "list", entity: "Film", list: list)
    #expect(terminal.contains("███ 0.99"), "\(terminal)")
    #expect(terminal.contains("6 (per day)"), "\(terminal)")
    let markdown = try tester("markdown").render(task: "list", entity: "Film", list: list)
    #expect(markdown.contains("| ACADEMY DINOSAUR | ███ 0.99 | 6 (per day) |"), "\(markdown)")
    let json = try tester("json").render(task: "list", entity: "Film", list: list)
    #expect(json.contains(#""text":"███ 0.99""#), "\(json)")
    #expect(json.contains(#""text":"6 (per day)""#), "\(json)")
  }

  @Test func jsonKeepsTheValueAndEveryPartsText() throws {
    let json = try tester("json").render(task: "inspect", entity: "Film")
    #expect(
      json.contains(#""key":"rentalRate","label":"Rental Rate","value":0.99,"text":"███ 0.99""#),
      "\(json)")
    #expect(
      json.contains(
        #""key":"rentalDuration","label":"Rental Duration","value":6,"text":"6\n(per day)""#),
      "\(json)")
  }
}
