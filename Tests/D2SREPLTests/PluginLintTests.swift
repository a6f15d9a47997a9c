import D2SModel
import D2STesting
import Foundation
import Plugins
import Testing

@testable import D2SREPL

/// A plugin whose formatter rule for the rental duration the demo's rule always outranks.
struct ShadowedFormatterPlugin: D2SPlugin {
  let name = "TrafficLights"
  var ruleText: String? {
    """
    propertyKey = 'rentalDuration' AND task != 'edit' AND entity.name = 'Film' => formatter = 'integer'
    propertyKey = 'length' AND task = 'inspect' => formatter = 'integer'
    """
  }
}

/// A plugin with no rules at all (as one whose rules file was not found would be).
struct RulelessPlugin: D2SPlugin {
  let name = "Ruleless"
}

/// `lint` and plugins: a plugin rule that a user rule always outranks is reported with the
/// rule that wins, and linting a plugin without rules is an error, never "no warnings".
@Suite struct PluginLintTests {
  @Test func aPluginRuleTheDemoAlwaysOutranksIsReported() throws {
    let session = try REPLSession(plugins: [ShadowedFormatterPlugin()])
    _ = try session.run(.open(try SakilaSQLite.copy()))
    _ = try session.run(.load(WebDemo.rules))
    let all = try session.lint(all: true)
    #expect(
      all.contains(
        "rule TrafficLights:1: warning: rule TrafficLights:1 can never win: rule 9 (\(WebDemo.rules):10) matches whenever it does, and the user's rules come first"
      ), "\(all)")
    // The demo's `length` rule has `task != 'edit'`, which the plugin's second rule lacks.
    #expect(!all.contains("rule TrafficLights:2 can never win"))
    #expect(try session.lint(plugin: "TrafficLights").contains("TrafficLights:1 can never win"))
  }

  @Test func lintingAPluginWithoutRulesIsAnError() throws {
    let session = try REPLSession(plugins: [RulelessPlugin()])
    #expect {
      _ = try session.lint(plugin: "Ruleless")
    } throws: { "\($0)".contains("plugin Ruleless has no rules to lint") }
    let tester = try RuleTester(plugins: [RulelessPlugin()])
    #expect(throws: PluginError.self) { _ = try tester.lint(plugin: "Ruleless") }
  }
}

/// The demo rules of this checkout.
enum WebDemo {
  static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/demo.d2s"
    ).path
}
