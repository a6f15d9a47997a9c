import Components
import D2SModel
import D2STesting
import EnvKeys
import Plugins
import RuleCore
import Testing

enum AuditLabelKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }
enum OtherLabelKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }

struct Stars: D2SView {
  static let componentName = "DisplayStars"
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    Text(String(repeating: "★", count: min((KVC.unwrap(value) as? Int) ?? 0, 5)))
  }
}

struct AuditPlugin: D2SPlugin {
  let name = "Audit"
  func exposeKeys(in registry: D2SContextKVC) throws {
    try registry.expose(AuditLabelKey.self, "auditLabel")
  }
  var ruleText: String? { "entity.name = 'Payment' => auditLabel = 'money'" }
}

struct StarsPlugin: D2SPlugin {
  let name = "Stars"
  var components: [PluginComponent] {
    [PluginComponent("DisplayStars", look: "BasicLook", Stars())]
  }
  var ruleText: String? {
    "propertyKey = 'rentalDuration' AND task != 'edit' => component = 'DisplayStars'"
  }
}

struct ClashingKeyPlugin: D2SPlugin {
  let name = "Clash"
  func exposeKeys(in registry: D2SContextKVC) throws {
    try registry.expose(OtherLabelKey.self, "auditLabel")
  }
}

struct ClashingComponentPlugin: D2SPlugin {
  let name = "MoreStars"
  var components: [PluginComponent] {
    [PluginComponent("DisplayStars", look: "BasicLook", Stars())]
  }
}

struct ReplacingPlugin: D2SPlugin {
  let name = "BetterStars"
  var components: [PluginComponent] {
    [PluginComponent("DisplayStars", look: "BasicLook", Stars(), replaces: true)]
  }
}

@Suite struct PluginRegistryTests {
  @Test func pluginsAddKeysRulesAndComponents() throws {
    let plugins = try PluginRegistry()
    try plugins.install(AuditPlugin())
    try plugins.install(StarsPlugin())
    try plugins.install(AuditPlugin())  // idempotent
    #expect(plugins.installed == ["builtin", "Audit", "Stars"])
    var context = RuleContext(engine: try plugins.makeEngine())
    context.database = try SakilaSQLite.open()
    try context.setValue(.string("Payment"), forKeyNamed: "entity")
    #expect(
      try context.showLine(forKeyNamed: "auditLabel")
        == "auditLabel = 'money'  # plugin Audit rule 1: entity.name = 'Payment' => auditLabel = 'money'"
    )
    context.task = "inspect"
    try context.setValue(.string("Film"), forKeyNamed: "entity")
    context.object = try context.database?.fetchObject("Film", primaryKey: [.int(1)])
    let page = try RenderEnvironment(looks: plugins.looks, formatters: plugins.formatters)
      .renderPage(context)
    #expect(page.contains("Rental Duration    ★★★★★"))
  }

  @Test func conflictsNameBothPlugins() throws {
    let plugins = try PluginRegistry()
    try plugins.install(AuditPlugin())
    try plugins.install(StarsPlugin())
    let key = #expect(throws: PluginError.self) { try plugins.install(ClashingKeyPlugin()) }
    #expect(key?.code == .keyConflict)
    #expect(
      key?.description == "plugin Clash exposes 'auditLabel' for another key than plugin Audit does"
    )
    let component = #expect(throws: PluginError.self) {
      try plugins.install(ClashingComponentPlugin())
    }
    #expect(component?.code == .componentConflict)
    #expect(component?.description.contains("plugin Stars registered") == true)
    try plugins.install(ReplacingPlugin())
    #expect(plugins.installed == ["builtin", "Audit", "Stars", "BetterStars"])
    let builtin = #expect(throws: PluginError.self) {
      try plugins.install(PluginThatRedefines())
    }
    #expect(builtin?.description.contains("plugin builtin") == true)
  }
}

enum FakeTaskKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }
struct PluginThatRedefines: D2SPlugin {
  let name = "Redefines"
  func exposeKeys(in registry: D2SContextKVC) throws {
    try registry.expose(FakeTaskKey.self, "task")
  }
}
