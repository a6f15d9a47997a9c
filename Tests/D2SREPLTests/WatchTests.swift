import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `watch` reloads a rule file between commands: the change lines, and an error that keeps
/// the previous rules; idle reloads at an interactive prompt are in TerminalTests.
@Suite struct WatchTests {
  final class Collector: @unchecked Sendable { var lines: [(String, Bool)] = [] }

  /// A session on `database` and a runner whose lines `collector` keeps, as printed.
  static func runner(_ database: String) throws -> (REPLSession, REPLRunner, Collector) {
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(database)")
    let collector = Collector()
    let runner = REPLRunner(session: session) { text, isError in
      collector.lines.append((text, isError))
    }
    return (session, runner, collector)
  }

  @Test(arguments: TestServer.available)
  func reloadsBetweenCommands(server: TestServer) throws {
    let (session, runner, collector) = try Self.runner(
      server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy())
    let path = try RuleToolsTests.ruleFile(
      "# films\nentity.name = 'Film' => displayNameForEntity = 'Films'\n")
    runner.runLine("list Film limit 1")
    runner.runLine("watch \(path)")
    #expect(collector.lines.last?.0 == "watching \(path): 1 rules")
    try "# films\nentity.name = 'Film' => displayNameForEntity = 'Movies'\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    let printed = collector.lines.map(\.0)
    #expect(printed.first == "reloaded \(path): 1 rules")
    #expect(printed.contains("displayNameForEntity: 'Films' → 'Movies'  (\(path):2)"))
    #expect(
      printed.last
        == "displayNameForEntity = 'Movies'  # rule 2: entity.name = 'Film' => displayNameForEntity = 'Movies'"
    )
    #expect(
      collector.lines.contains { $0.0.hasPrefix("title: 'Films' → 'Movies'  (rule builtin:") })

    // A file saved with an error: the error at FILE:LINE:COL, and the old answers stay.
    try "entity.name = => displayNameForEntity = 'Broken'\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(collector.lines.first?.1 == true)
    #expect(collector.lines.first?.0.hasPrefix("error: \(path):1:15: ") == true)
    #expect(collector.lines.last?.0.hasPrefix("displayNameForEntity = 'Movies'  # rule 2") == true)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(collector.lines.count == 1, "an error is reported once")

    runner.runLine("unwatch \(path)")
    #expect(collector.lines.last?.0 == "stopped watching \(path) (its 1 rules stay)")
    #expect(throws: REPLError.self) { try session.run("unwatch \(path)") }
  }

  /// A watched file that can no longer be read (not UTF-8, deleted) is reported once, and its
  /// rules stay; read again, it reloads. Before, nothing was said: the user's edit was ignored
  /// unseen.
  @Test func aFileThatCannotBeReadIsReportedOnce() throws {
    let (_, runner, collector) = try Self.runner(try SakilaSQLite.copy())
    let path = try RuleToolsTests.ruleFile(
      "entity.name = 'Film' => displayNameForEntity = 'Good'\n")
    runner.runLine("list Film limit 1")
    runner.runLine("watch \(path)")
    try Data(
      "entity.name = 'Film' => displayNameForEntity = 'Bad\u{FF}'\n".utf8.map {
        $0 == 0xC3 ? 0xFF : $0
      }
    )
    .write(to: URL(fileURLWithPath: path))
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(collector.lines.first?.1 == true, "\(collector.lines)")
    #expect(collector.lines.first?.0.contains("not UTF-8") == true, "\(collector.lines)")
    #expect(collector.lines.last?.0.contains("'Good'") == true)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(collector.lines.count == 1, "reported once: \(collector.lines)")
    try FileManager.default.removeItem(atPath: path)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(
      collector.lines.first?.0.contains("cannot read rule file") == true, "\(collector.lines)")
    try "entity.name = 'Film' => displayNameForEntity = 'Back'\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    collector.lines = []
    runner.runLine("show displayNameForEntity")
    #expect(collector.lines.last?.0.contains("'Back'") == true, "\(collector.lines)")
  }
}
