import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// The rule tools of the built binary: `--lint` and `--coverage` exit codes and streams,
/// `--check` transcripts (the README's first session among them) and `--update`.
@Suite struct RuleToolsBinaryTests {
  static let enabled = FileManager.default.fileExists(atPath: BinaryTests.binary.path)
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Runs the binary in the package's root folder (so `data/demo.d2s` reads as in the README).
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryTests.Run {
    let quoted = ([BinaryTests.binary.path] + arguments).map {
      "'\($0.replacing("'", with: "'\\''"))'"
    }
    return try BinaryTests().run(
      ["-c", "cd '\(Self.packageRoot.path)' && exec \(quoted.joined(separator: " "))"],
      environment: environment, program: "/bin/sh")
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func lintExitsOneOnWarningsZeroWithoutAndTwoOnAParseError() throws {
    let database = try SakilaSQLite.copy()
    let fixture = RuleToolsTests.fixtures.appendingPathComponent("lint.d2s").path
    let warned = try run([database, "--rules", fixture, "--lint"])
    #expect(warned.status == 1)
    #expect(warned.stdout.hasSuffix("6 warnings\n"))
    #expect(warned.stdout.contains("\(fixture):7:15: warning: unknown entity 'Flim'"))
    let clean = try run([database, "--rules", "data/demo.d2s", "--lint"])
    #expect(clean.status == 0)
    #expect(clean.stdout == "no warnings\n")
    let broken = try RuleToolsTests.ruleFile("entity.name = => title = 'x'\n")
    let failed = try run([database, "--rules", broken, "--lint"])
    #expect(failed.status == 2)
    #expect(failed.stderr.hasPrefix("error: \(broken):1:15: "))
    let builtin = try run([database, "--lint", "--plugin", "builtin"])
    #expect(builtin.status == 0)
    #expect(builtin.stdout == "no warnings\n")
    let unknown = try run([database, "--lint", "--plugin", "Nope"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("error: no plugin named 'Nope' is installed"))
    let alone = try run([database, "--plugin", "builtin"])
    #expect(alone.status == 2)
    #expect(alone.stderr == "error: --plugin goes with --lint\n")
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func coverageReportsNeverWonRulesAtExit() throws {
    let database = try SakilaSQLite.copy()
    let result = try run([
      database, "--rules", "data/demo.d2s", "--coverage", "-c", "list Film limit 1",
    ])
    #expect(result.status == 0)
    #expect(result.stderr.hasPrefix("coverage: 11 of 16 rules never won\n"))
    #expect(
      result.stderr.contains(
        "\n  rule 2: entity.name = 'Actor' => displayNameForEntity = 'Moviestars'  (data/demo.d2s:3)\n"
      ))
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func theREADMEsFirstSessionIsAPassingTranscript() throws {
    let database = try SakilaSQLite.copy()
    let transcript = "Documentation/first-session.transcript"
    let result = try run([database, "--rules", "data/demo.d2s", "--check", transcript])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "\(transcript): 10 commands, all as expected\n")
    // The README shows the same commands.
    let readme = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let shown = readme.split(separator: "\n").filter { $0.hasPrefix("sakila> ") }.map {
      $0.dropFirst(8)
    }
    let text = try String(
      contentsOf: Self.packageRoot.appendingPathComponent(transcript), encoding: .utf8)
    #expect(shown.map(String.init) == Transcript(text).entries.map(\.command))
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func aChangedLineFailsWithADiffAndUpdateRewritesIt() throws {
    let database = try SakilaSQLite.copy()
    let original = try String(
      contentsOf: Self.packageRoot.appendingPathComponent("Documentation/first-session.transcript"),
      encoding: .utf8)
    let changed = original.replacing("saved Film 1\n", with: "saved Film 2\n")
    let path = try RuleToolsTests.ruleFile(changed, named: "session.transcript")
    let failed = try run([database, "--rules", "data/demo.d2s", "--check", path])
    #expect(failed.status == 1)
    let line =
      changed.split(separator: "\n", omittingEmptySubsequences: false)
      .firstIndex { $0 == "> save" }.map { $0 + 1 } ?? 0
    #expect(
      failed.stdout
        == """
        --- \(path):\(line) expected
        +++ \(path):\(line) actual
        @@ -\(line + 1),1 +\(line + 1),1 @@ > save
        -saved Film 2
        +saved Film 1
        \(path): 1 of 10 commands differ

        """)
    let updated = try run([database, "--rules", "data/demo.d2s", "--check", path, "--update"])
    #expect(updated.status == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    let again = try run([database, "--rules", "data/demo.d2s", "--check", path])
    #expect(again.status == 0, "a second run on a fresh copy prints the same")
  }

  @Test(
    .enabled(if: enabled, "build d2s-repl first"), arguments: TestServer.available)
  func checkRunsOnAFreshCopyEachTime(server: TestServer) throws {
    let database = server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy()
    let path = try RuleToolsTests.ruleFile(
      """
      > edit Language 1
      > object.name = 'Klingon'
      > save
      > displayPropertyKeys = ('name')  # no timestamps: a save sets last_update
      > list Language where name = 'Klingon'
      """, named: "save.transcript")
    _ = try run([database, "--check", path, "--update"])
    let text = try String(contentsOfFile: path, encoding: .utf8)
    // PostgreSQL's char(20) keeps its padding, as psql shows it; SQLite stores what is given.
    let padding = server == .postgresql ? String(repeating: " ", count: 13) : ""
    #expect(
      text.hasSuffix(
        "Klingon\(padding)\n1 Language · \"with id\" shows the key for inspect Language ID\n"),
      "\(text)")
    let again = try run([database, "--check", path])
    #expect(again.status == 0, "the save went to a copy: \(again.stdout)")
    let original = try run([database, "-c", "inspect Language 1"])
    #expect(original.stdout.hasPrefix("English\(padding)\n"), "the original is unchanged")
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func ruleToolsPrintJSON() throws {
    let database = try SakilaSQLite.copy()
    let result = try run([
      database, "--format", "json", "-c", "rule entity.name = 'Flim' => title = 'x'", "-c", "lint",
      "-c", "why-not 1", "-c", "coverage",
    ])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix(#"{"warnings":["rule 1: warning: unknown entity 'Flim'"#))
    #expect(lines[1].hasSuffix(#""count":1,"modelChecked":true}"#))
    #expect(
      lines[2].hasPrefix(
        #"{"rule":"1","answer":"rule 1 does not match: entity.name = 'Flim' is false here"#))
    #expect(lines[3] == #"{"rules":[{"rule":"1","won":0,"evaluated":0}],"neverWon":["1"]}"#)
  }
}
