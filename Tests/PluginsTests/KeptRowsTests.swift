import Components
import D2SModel
import D2STesting
import Plugins
import RuleCore
import Testing

/// Writes every row's key and cells, each row read as it streams by, or all rows kept first
/// (as a renderer that lays a table out does).
struct RowListingRenderer: PageRenderer {
  let keepsRows: Bool

  func render(_ node: ViewNode, to output: any TextOutput) throws {
    guard case .page(let page) = node, case .table(let table) = page.content else { return }
    func line(_ row: TableRow) -> String {
      "\(row.key): " + row.cells.map { "\($0.value)=\($0.text)" }.joined(separator: " | ") + "\n"
    }
    var lines: [String] = []
    var kept: [TableRow] = []
    try table.rows.stream { row in
      if keepsRows { kept.append(row) } else { lines.append(line(row)) }
    }
    output.write((keepsRows ? kept.map(line) : lines).joined())
  }
}

struct RowListingPlugin: D2SPlugin {
  let name = "RowListing"
  var renderers: [PluginRenderer] {
    [
      PluginRenderer("rows-kept") { _ in RowListingRenderer(keepsRows: true) },
      PluginRenderer("rows-read") { _ in RowListingRenderer(keepsRows: false) },
    ]
  }
}

/// A list reuses a row's arrays for the next row once the row is written: a renderer that
/// keeps every row still has each row's own key and cells.
@Suite struct KeptRowsTests {
  func page(_ platform: String, entity: String) throws -> String {
    let plugins = try PluginRegistry()
    try plugins.install(RowListingPlugin())
    var context = RuleContext(engine: try plugins.makeEngine())
    context.database = try SakilaSQLite.open()
    context.task = "list"
    try context.setValue(.string(entity), forKeyNamed: "entity")
    context.platform = platform
    return try RenderEnvironment(looks: plugins.looks, renderers: plugins.renderers)
      .renderPage(context)
  }

  @Test(arguments: ["Film", "Rental", "Language"])
  func keptRowsAreTheRowsReadOneByOne(entity: String) throws {
    let kept = try page("rows-kept", entity: entity)
    let read = try page("rows-read", entity: entity)
    let lines = kept.split(separator: "\n")
    #expect(lines.count >= 6)
    #expect(Set(lines).count == lines.count, "every row its own")
    #expect(kept == read)
  }
}
