import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Plugins
import Testing

@testable import D2SREPL

/// `lint --plugin NAME`, `--lint --plugin NAME` and `RuleTester.lint`: a plugin's own findings,
/// apart from the user's and the builtin rules, which lint clean.
@Suite struct PluginLintTests {
  /// A plugin whose rule names a component no look has.
  struct TypoPlugin: D2SPlugin {
    let name = "Typo"
    var ruleText: String? { "propertyKey = 'rating' => component = 'DisplayRatting'" }
  }

  /// A plugin whose rules are fine.
  struct CleanPlugin: D2SPlugin {
    let name = "Clean"
    var ruleText: String? { "entity.name = 'Film' => displayNameForEntity = 'Movies'" }
  }

  func session() throws -> REPLSession {
    let session = try REPLSession(plugins: [TypoPlugin(), CleanPlugin()], width: 100)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    return session
  }

  @Test func theBuiltinRulesLintClean() throws {
    let session = try session()
    let builtin = try session.run("lint --plugin builtin")
    #expect(builtin == "no warnings", "\(builtin)")
    let all = try session.run("lint --all")
    #expect(all.hasSuffix("\n1 warning"), "only the Typo plugin's rule: \(all)")
  }

  @Test func aPluginsOwnFindingsOnly() throws {
    let session = try session()
    _ = try session.run("rule entity.name = 'Flim' => title = 'x'")
    #expect(
      try session.run("lint --plugin Typo")
        == """
        rule Typo:1: warning: unknown component 'DisplayRatting' (no look has it); did you mean 'DisplayString'?
        1 warning
        """)
    #expect(try session.run("lint --plugin Clean") == "no warnings")
    #expect(try session.run("lint").contains("unknown entity 'Flim'"))
    #expect(!(try session.run("lint")).contains("DisplayRatting"))
    #expect(throws: PluginError.self) { try session.run("lint --plugin Nope") }
    #expect(throws: REPLError.self) { try CommandParser.parse("lint --plugin") }
    #expect(throws: REPLError.self) { try CommandParser.parse("lint --plugin a b") }
    #expect(try CommandParser.parse("lint --plugin Typo") == .lintPlugin("Typo"))
  }

  @Test func theCommandLineExitsOneOnAPluginsWarningsAndTwoOnAnUnknownPlugin() throws {
    let session = try session()
    let lint = { (arguments: [String]) -> Int32? in
      D2SREPLCommand.parseFast(arguments).map { $0.runLint(session) }
    }
    #expect(lint(["db", "--lint", "--plugin", "Typo"]) == 1)
    #expect(lint(["db", "--lint", "--plugin", "Clean"]) == 0)
    #expect(lint(["db", "--lint", "--plugin", "Nope"]) == 2)
    #expect(D2SREPLCommand.parseFast(["db", "--plugin", "a", "--plugin", "b"]) == nil)
  }

  @Test func ruleTesterLintsTheTestersRulesAndPlugins() throws {
    let tester = try RuleTester(
      rules: "entity.name = 'Flim' => title = 'x'", plugins: [TypoPlugin(), CleanPlugin()],
      database: try TestDatabases.sakila())
    let all = try tester.lint().map(\.message)
    #expect(all.count == 2, "\(all)")
    #expect(all.contains { $0.contains("unknown entity 'Flim'") })
    #expect(all.contains { $0.contains("'DisplayRatting'") })
    #expect(try tester.lint(plugin: "Clean").isEmpty)
    #expect(try tester.lint(plugin: "builtin").isEmpty)
    #expect(try tester.lint(plugin: "Typo").count == 1)
    #expect(throws: PluginError.self) { try tester.lint(plugin: "Nope") }
  }
}
