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
    [PluginComponent("Badge", look: "BasicLook", RatingBadge())]
  }
}

/// One name per component: its type's, or the one the type declares. Registering it gives
/// rules the name; the Swift DSL assigns the view itself; another name fails the install.
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
          == "plugin Misnamed registers RatingBadge as component 'Badge', but its name is 'RatingBadge' (rules in Swift assign it so): register it with PluginComponent(look:_:), or give RatingBadge `static let componentName = \"Badge\"`"
    }
    #expect(!registry.installed.contains("Misnamed"), "nothing half-installed")
  }
}
