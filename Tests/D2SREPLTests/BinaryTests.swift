import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// The built `d2s-repl` binary, driven through pipes: output and exit status.
@Suite struct BinaryTests {
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
      .appendingPathComponent("d2s-repl")
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs the binary with `stdin` as its standard input; output and error come back whole.
  func run(
    _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:],
    program: String = BinaryTests.binary.path
  ) throws -> Run {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "100"
    environment.merge(extra) { _, new in new }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("stdin")
    let output = folder.appendingPathComponent("stdout")
    let errors = folder.appendingPathComponent("stderr")
    try Data(stdin.utf8).write(to: input)
    let status = try Spawn.run(
      program, arguments, environment: environment,
      inputPath: input.path, outputPath: output.path, errorPath: errors.path)
    // Lossy decoding: output that is not UTF-8 must still be checked, not read as "".
    return Run(
      status: status, stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
  }

  /// A script on an SQLite file loads neither libpq nor libedit (each is loaded on first use).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-repl first"))
  func scriptsLoadNeitherLibpqNorLibedit() throws {
    let database = try SakilaSQLite.copy()
    let run = try run([database, "-c", "list Language"], environment: ["LD_DEBUG": "files"])
    #expect(run.status == 0)
    #expect(run.stderr.contains("libsqlite3"), "the loader's list of files")
    #expect(!run.stderr.contains("libpq"))
    #expect(!run.stderr.contains("libedit"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-repl first"))
  func pipedScriptsAndExitStatus() throws {
    let database = try SakilaSQLite.copy()
    let ok = try run([database], stdin: "list Language\nshow task\n")
    #expect(ok.status == 0)
    #expect(ok.stdout.contains("6 Language"))
    #expect(ok.stdout.contains("task = 'list'  # set"))
    #expect(ok.stderr.isEmpty)

    let failing = try run([database], stdin: "frobnicate\nlist Language\n")
    #expect(failing.status == 1)
    #expect(failing.stderr == "error: unknown command 'frobnicate' (try `help`)\n")
    #expect(failing.stdout.contains("6 Language"), "later commands still run")

    let bailing = try run([database, "--bail", "-c", "frobnicate", "-c", "list Language"])
    #expect(bailing.status == 1)
    #expect(!bailing.stdout.contains("Language"))

    let commands = try run([database, "-c", "list Actor limit 1"])
    #expect(commands.status == 0)
    #expect(commands.stdout.contains("PENELOPE"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-repl first"))
  func startupFailuresExitWithTwo() throws {
    #expect(try run(["/nonexistent/x.db", "-c", "entities"]).status == 2)
    #expect(try run(["--no-such-option"]).status == 2)
    let missing = try run(["--rules", "/nonexistent/rules.d2s", "-c", "entities"])
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("error: cannot read rule file /nonexistent/rules.d2s"))
    // A missing script is found before any command runs: nothing is done, nothing written.
    let folder = try TestFolders.make("d2s-missing-script")
    let written = folder.appendingPathComponent("x.d2s").path
    let database = try SakilaSQLite.copy()
    let noScript = try run([
      database, "-c", "rule *true* => title = 'x'", "-c", "write \(written)", "-f",
      folder.appendingPathComponent("nonexist").path,
    ])
    #expect(noScript.status == 2)
    #expect(noScript.stdout.isEmpty, "\(noScript.stdout)")
    #expect(!FileManager.default.fileExists(atPath: written))
    let version = try run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "d2s-repl 0.1.0\n")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-repl first"))
  func theDemoOpensSakilaWithItsRules() throws {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-demo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let process = try runDemo(cache: cache, stdin: "entities\nlist Film limit 1\n")
    #expect(process.status == 0)
    #expect(process.stdout.contains("Moviestars (Actor)"))
    #expect(process.stdout.contains("$0.99"))
  }

  func runDemo(cache: URL, stdin: String) throws -> Run {
    try run(
      ["--demo"], stdin: stdin,
      environment: [
        "XDG_CACHE_HOME": cache.path,
        "D2S_RESOURCES": SakilaSQLite.dataFolder.deletingLastPathComponent().path,
      ])
  }
}

extension BinaryTests {
  /// SPEC §7: warnings go to stderr after the command's output; they are not failures.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-repl first"))
  func warningsGoToStandardError() throws {
    let result = try run(
      [try SakilaSQLite.copy()],
      stdin: "rule task = 'list' => title = 'A'\nrule task = 'list' => title = 'B'\n")
    #expect(result.status == 0)
    #expect(result.stdout == "rule 1 added\nrule 2 added\n")
    #expect(
      result.stderr.hasPrefix("warning: rule 2 (task = 'list' => title = 'B') and rule 1"),
      "\(result.stderr)")
    #expect(!result.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
  }
}

extension BinaryTests {
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil
        && FileManager.default.fileExists(atPath: binary.path),
      "needs the test PostgreSQL and the built d2s-repl"))
  func postgresqlThroughPipes() throws {
    let url = try PostgresSakila.copy()
    let result = try run(
      [url, "--bail"],
      stdin:
        "list Language order by name desc limit 2\ninspect Film 1\nedit Actor 1\nobject.lastName = 'GUINNESS'\nsave\n"
    )
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Mandarin"))
    #expect(result.stdout.contains("saved Actor 1"))
  }
}

@Suite struct CompletionTests {
  @Test func filesAfterFileCommandsWordsElsewhere() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("rules"), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: folder.appendingPathComponent("demo.d2s").path, contents: nil)
    defer { try? FileManager.default.removeItem(at: folder) }
    let prefix = folder.path + "/"
    #expect(
      LineEditor.completions(prefix: prefix + "d", line: "load " + prefix + "d") == [
        prefix + "demo.d2s"
      ])
    #expect(
      LineEditor.completions(prefix: prefix + "r", line: "source " + prefix + "r") == [
        prefix + "rules/"
      ])
    LineEditor.words = ["list", "load", "Language"]
    #expect(LineEditor.completions(prefix: "L", line: "list L") == ["Language"])
    #expect(LineEditor.completions(prefix: "l", line: "l") == ["list", "load"])
  }
}
