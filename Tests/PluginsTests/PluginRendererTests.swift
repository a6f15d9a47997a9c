import Components
import D2SModel
import D2STesting
import Plugins
import RuleCore
import Testing

/// Writes a page's title and, for a table, its row count: a renderer of a test plugin.
struct CountingRenderer: PageRenderer {
  func render(_ node: ViewNode, to output: any TextOutput) throws {
    guard case .page(let page) = node else { return }
    var rows = 0
    if case .table(let table) = page.content { try table.rows.stream { _ in rows += 1 } }
    output.write("\(page.title): \(rows) rows\n")
  }
}

struct CountingPlugin: D2SPlugin {
  let name = "Counting"
  var renderers: [PluginRenderer] { [PluginRenderer("count") { _ in CountingRenderer() }] }
}

struct OtherCountingPlugin: D2SPlugin {
  let name = "OtherCounting"
  var renderers: [PluginRenderer] { [PluginRenderer("count") { _ in CountingRenderer() }] }
}

/// Renderers are registered by platform, from the builtin set and from plugins; an unknown
/// platform is an error that names the known ones.
@Suite struct PluginRendererTests {
  func listContext(_ plugins: PluginRegistry, platform: String) throws -> RuleContext {
    var context = RuleContext(engine: try plugins.makeEngine())
    context.database = try SakilaSQLite.open()
    context.task = "list"
    try context.setValue(.string("Language"), forKeyNamed: "entity")
    context.platform = platform
    return context
  }

  @Test func aPluginAddsAPlatform() throws {
    let plugins = try PluginRegistry()
    #expect(plugins.renderers.platforms == ["csv", "html", "json", "markdown", "terminal"])
    try plugins.install(CountingPlugin())
    #expect(
      plugins.renderers.platforms == ["count", "csv", "html", "json", "markdown", "terminal"])
    let page = try RenderEnvironment(looks: plugins.looks, renderers: plugins.renderers)
      .renderPage(try listContext(plugins, platform: "count"))
    #expect(page == "Language: 6 rows\n")
  }

  @Test func anUnknownPlatformIsAnErrorNamingTheKnownOnes() throws {
    let plugins = try PluginRegistry()
    let error = #expect(throws: UnknownPlatformError.self) {
      try RenderEnvironment(renderers: plugins.renderers)
        .renderPage(try listContext(plugins, platform: "count"))
    }
    #expect(
      error?.description == "unknown platform 'count' (known: csv, html, json, markdown, terminal)")
  }

  @Test func twoPluginsCannotRenderOnePlatform() throws {
    let plugins = try PluginRegistry()
    try plugins.install(CountingPlugin())
    let error = #expect(throws: PluginError.self) { try plugins.install(OtherCountingPlugin()) }
    #expect(error?.code == .rendererConflict)
    #expect(
      error?.description
        == "plugin OtherCounting registers a renderer for platform 'count', which plugin Counting registered"
    )
    #expect(plugins.installed == ["builtin", "Counting"], "nothing of it installed")
  }
}
