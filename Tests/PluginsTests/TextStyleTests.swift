import Components
import D2SModel
import D2STesting
import Plugins
import RuleCore
import Testing

/// The film's rating as a red, bold badge; its length in grey italics.
struct RatingFlag: D2SView {
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    FormattedValue().bold().foregroundStyle(.red)
  }
}

struct QuietLength: D2SView {
  var body: some D2SView {
    HStack(spacing: 1) {
      FormattedValue().italic()
      Text("min").foregroundStyle(.secondary).monospaced()
    }
  }
}

/// A value component (the list's fast path: its cells skip the body) in bold.
struct BoldRate: FormattedValueComponent {
  var body: some D2SView { FormattedValue().bold() }
}

struct StylePlugin: D2SPlugin {
  let name = "Style"
  var components: [PluginComponent] {
    [
      PluginComponent(look: "BasicLook", RatingFlag()),
      PluginComponent(look: "BasicLook", QuietLength()),
      PluginComponent(look: "BasicLook", BoldRate()),
    ]
  }
  var rules: RuleModel {
    [
      \.propertyKey == "rating" => \.component <= RatingFlag(),
      \.propertyKey == "length" => \.component <= QuietLength(),
      \.propertyKey == "rentalRate" => \.component <= BoldRate(),
    ]
  }
  var ruleText: String? {
    "entity.name = 'Film' AND task = 'list' => displayPropertyKeys = ('title', 'rating', 'length', 'rentalRate')"
  }
}

/// Semantic styles: each renderer shows them its own way, and a terminal only when asked
/// (attached, `NO_COLOR` unset); codes never count in a table's widths.
@Suite struct TextStyleTests {
  func render(_ platform: String, task: String, styles: Bool = false) throws -> String {
    let tester = try RuleTester(plugins: [StylePlugin()], database: try TestDatabases.sakila())
      .setting("platform", to: "'\(platform)'").setting("task", to: "'\(task)'")
      .with(object: "Film", key: [.int(1)])
    var request = PageRequest(list: ListRequest(limit: 2), width: 100)
    request.styles = styles
    return try PageApplication(
      base: tester.context, looks: tester.plugins.looks, formatters: tester.plugins.formatters,
      renderers: tester.plugins.renderers
    ).render(request)
  }

  @Test func aTerminalShowsANSIOnlyWhenAsked() throws {
    let styled = try render("terminal", task: "inspect", styles: true)
    #expect(styled.contains("Rating             \u{1B}[1;31mPG\u{1B}[0m\n"), "\(styled)")
    #expect(styled.contains("Length             \u{1B}[3m86\u{1B}[0m \u{1B}[90mmin\u{1B}[0m\n"))
    let plain = try render("terminal", task: "inspect")
    #expect(plain.contains("Rating             PG\n"))
    #expect(plain.contains("Length             86 min\n"))
    #expect(!plain.contains("\u{1B}"))
  }

  @Test func aStyledCellKeepsItsColumnsAligned() throws {
    var tester = try RuleTester(plugins: [StylePlugin()], database: try TestDatabases.sakila())
    tester = try tester.setting("task", to: "'list'").setting("entity", to: "'Film'")
    var request = PageRequest(list: ListRequest(limit: 2), width: 100)
    request.styles = true
    let page = try PageApplication(
      base: tester.context, looks: tester.plugins.looks, formatters: tester.plugins.formatters,
      renderers: tester.plugins.renderers
    ).render(request)
    let lines = page.split(separator: "\n").map(String.init)
    let header = try #require(lines.first { $0.hasPrefix("Title") })
    let row = try #require(lines.first { $0.hasPrefix("ACADEMY DINOSAUR") })
    #expect(row.contains("\u{1B}[1;31mPG\u{1B}[0m"), "\(page)")
    let visible = row.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(
      visible.firstRange(of: "PG")?.lowerBound.utf16Offset(in: visible)
        == header.firstRange(of: "Rating")?.lowerBound.utf16Offset(in: header))
  }

  @Test func markdownJSONAndPlainTextEachTheirWay() throws {
    let markdown = try render("markdown", task: "inspect")
    #expect(markdown.contains("| Rating | __PG__ |"), "\(markdown)")
    #expect(markdown.contains("| Length | _86_ `min` |"), "\(markdown)")
    let json = try render("json", task: "inspect")
    #expect(
      json.contains(
        #""key":"rating","label":"Rating","value":"PG","text":"PG","style":["bold","red"]"#),
      "\(json)")
    #expect(!json.contains("\u{1B}"))
    let list = try render("json", task: "list")
    #expect(list.contains(#"{"value":0.99,"text":"0.99","style":["bold"]}"#), "\(list)")
  }

  @Test func anInnerStyleDoesNotEndTheOuterOne() {
    var red = TextStyle()
    red.color = .red
    var bold = TextStyle()
    bold.bold = true
    let outer = TerminalText.styled(TerminalText.styled("a", red) + " b", bold)
    #expect(outer == "\u{1B}[1m\u{1B}[31ma\u{1B}[0m\u{1B}[1m b\u{1B}[0m")
  }
}
