import Components
import D2STesting
import Plugins
import RuleCore
import Testing

/// A badge of the rating: named by its type, nowhere else.
struct RatingBadge: D2SView {
  var body: some D2SView { Text("[") }
}

/// A component that takes the name of a builtin page in a look of its own.
struct PlainInspect: D2SView {
  static let componentName = "Inspect"
  var body: some D2SView { Text("plain") }
}

struct BadgePlugin: D2SPlugin {
  let name = "Badge"
  var components: [PluginComponent] { [PluginComponent(look: "BasicLook", RatingBadge())] }
  var rules: RuleModel { [\.propertyKey == "rating" => \.component <= RatingBadge()] }
}

struct MisnamedPlugin: D2SPlugin {
  let name = "Misnamed"
  var components: [PluginComponent] {
    [PluginComponent("Details", look: "PlainLook", PlainInspect())]
  }
}

/// One view type under two names with two settings: it declares no name of its own.
struct TwoBadgesPlugin: D2SPlugin {
  let name = "TwoBadges"
  var components: [PluginComponent] {
    [
      PluginComponent("RedBadge", look: "BasicLook", RatingBadge()),
      PluginComponent("GreenBadge", look: "BasicLook", RatingBadge()),
    ]
  }
}

/// One name per component: its type's, or the one the type declares. Registering it gives
/// rules the name; the Swift DSL assigns the view itself; registering a type that declares
/// its name under another fails the install.
@Suite struct ComponentNameTests {
  @Test func theTypeNamesTheComponentForLooksAndRules() throws {
    #expect(RatingBadge.componentName == "RatingBadge")
    #expect(PlainInspect.componentName == "Inspect")
    #expect(PluginComponent(look: "PlainLook", PlainInspect()).name == "Inspect")
    let tester = try RuleTester(plugins: [BadgePlugin()], database: try TestDatabases.sakila())
      .setting("propertyKey", to: "'rating'")
    #expect(try tester.value("component") == "'RatingBadge'")
    #expect(try tester.lint(plugin: "Badge").isEmpty, "the look has it")
  }

  @Test func anotherNameFailsTheInstallAndSaysWhatToWrite() throws {
    let registry = try PluginRegistry()
    #expect {
      try registry.install(MisnamedPlugin())
    } throws: { error in
      guard let error = error as? PluginError else { return false }
      return error.code == .componentNameMismatch
        && error.message
          == "plugin Misnamed registers PlainInspect as component 'Details', but the type declares its name as 'Inspect' (rules in Swift assign it so): register it with PluginComponent(look:_:)"
    }
    #expect(!registry.installed.contains("Misnamed"), "nothing half-installed")
    // A type that declares no name may be registered under names of the plugin's choosing.
    try registry.install(TwoBadgesPlugin())
    #expect(registry.installed.contains("TwoBadges"))
  }
}
