import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

/// Cells stay values until the renderer: a cell made by its component per row holds the text
/// as it is, and each renderer escapes it as its medium needs (the terminal and Markdown
/// escape control characters, JSON as JSON does), never one renderer's text in another.
@Suite struct CellTextTests {
  func render(platform: String) throws -> String {
    let registry = D2SContextKVC()
    try D2SKeys.expose(in: registry)
    // Reading `object` makes the component a per-row choice: the cell is made by the view.
    let rules = "task = 'list' AND object.id > 0 => component = 'DisplayString'"
    let engine = try D2SEngine.make(
      rules: RuleModel(try RuleParser(registry: registry).parseRules(rules)), registry: registry)
    var base = RuleContext(engine: engine)
    base.database = try TestDatabases.sqlite(
      "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO note VALUES (1, 'two' || char(10) || 'lines' || char(27) || '[31m');"
    )
    return try PageApplication(base: base).render(
      PageRequest(task: "list", entityName: "Note", platform: platform))
  }

  @Test func eachRendererEscapesACellsTextItself() throws {
    #expect(try render(platform: "terminal").contains("two\\nlines\\e[31m\n"))
    #expect(try render(platform: "markdown").contains("| two\\nlines\\e[31m |"))
    let json = try render(platform: "json")
    #expect(json.contains(#""text":"two\nlines\u001b[31m""#), "\(json)")
  }
}
