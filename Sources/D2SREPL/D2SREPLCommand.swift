import ArgumentParser
import Components
import D2SModel
import Foundation
import Plugins

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// `d2s-repl [DATABASE] [--rules FILE]... [-c COMMAND]... [-f SCRIPT] [--bail] [--demo] [--version]`
public struct D2SREPLCommand: ParsableCommand {
  public static let version = "0.1.0"

  /// The name help and usage lines give the command: the executable's (`d2s-repl`, or a
  /// custom REPL's own).
  nonisolated(unsafe) static var commandName = "d2s-repl"

  public static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: commandName,
      abstract:
        "Browse, edit and re-rule a database from the terminal (Direct to SwiftUI for Linux).")
  }

  @Argument(help: "An SQLite file (or sqlite:PATH) or a postgresql:// URL.")
  var database: String?

  @Option(name: .customLong("rules"), help: "A rule file to load at start (repeatable).")
  var ruleFiles: [String] = []

  @Option(name: .customShort("c"), help: "A command to run (repeatable); stdin is then not read.")
  var commands: [String] = []

  @Option(name: .customShort("f"), help: "A script of commands to run; stdin is then not read.")
  var script: String?

  @Flag(help: "Stop at the first failing command.")
  var bail = false

  @Flag(help: "Open the bundled Sakila sample with the demo rules.")
  var demo = false

  @Flag(help: "With --demo: build the sample database anew.")
  var reset = false

  @Option(
    name: .customLong("copy"),
    help: ArgumentHelp(
      "With --demo: write the Sakila sample database to FILE (a new file) and exit.",
      valueName: "FILE"))
  var copy: String?

  @Option(
    help: "Columns a page may use (default: COLUMNS, else the terminal's; scripts have no limit).")
  var width: Int?

  @Option(
    help:
      "Output format for the whole run: terminal, markdown, json (JSON Lines) or a plugin's platform."
  )
  var format: String?

  @Flag(name: .customLong("read-only"), help: "Open databases read-only: browse, never write.")
  var readOnly = false

  @Option(help: "Run a transcript on a fresh copy of the database; exit 1 when its output differs.")
  var check: String?

  @Flag(help: "With --check: rewrite the transcript's expected output.")
  var update = false

  @Flag(help: "Lint the rules after loading them, then exit (1 when there are warnings).")
  var lint = false

  @Option(
    name: .customLong("plugin"),
    help: ArgumentHelp(
      "With --lint: lint the rules of the installed plugin NAME instead of the user's.",
      valueName: "NAME"))
  var lintPlugin: String?

  @Flag(help: "At exit, print the rules that never won to stderr.")
  var coverage = false

  @Flag(
    help:
      "After each command, print its time, statements, rule look-ups and rows to stderr (not with --check)."
  )
  var timing = false

  @Flag(
    help:
      "After each command, print its SQL statements and rule look-ups to stderr (not with --check)."
  )
  var trace = false

  @Flag(help: "Print the version.")
  var version = false

  public init() {}

  /// The plugins `main(plugins:)` installs (set before the command line is parsed).
  nonisolated(unsafe) static var plugins: [any D2SPlugin] = []

  public func run() throws {
    if version {
      print("d2s-repl \(Self.version)")
      return
    }
    let interactive =
      commands.isEmpty && script == nil && check == nil && !lint && isatty(0) == 1
      && isatty(1) == 1
    // --width, then COLUMNS, then the terminal when interactive; else no limit (as sqlite3 and
    // psql, which never cut values in scripts).
    let columns = EnvironmentVariable.value("COLUMNS").flatMap(Int.init).flatMap {
      $0 > 0 ? $0 : nil
    }
    let width = self.width ?? columns ?? (interactive ? terminalWidth() : nil)
    if let copy { throw ExitCode(copyDemo(to: copy)) }
    let session: REPLSession
    var scratch: ScratchDatabase?
    defer { scratch?.remove() }
    do {
      session = try REPLSession(
        plugins: Self.plugins, width: width, defaultLimit: interactive ? 20 : nil)
      session.readOnly = readOnly
      var start: [REPLCommand] = []
      if let format {
        guard session.renderers.platforms.contains(format) else {
          throw REPLError(
            "unknown format '\(format)' (use \(session.renderers.platforms.joined(separator: ", ")))"
          )
        }
        start.append(.set(key: "platform", value: .string(format)))
      }
      if update, check == nil { throw REPLError("--update goes with --check FILE") }
      var opened = demo ? try Demo.database(reset: reset) : database
      if check != nil, let original = opened {
        scratch = try ScratchDatabase(copying: original)
        opened = scratch?.target
      }
      if let opened { start.append(.open(opened)) }
      if demo { start.append(.load(try Demo.rulesPath())) }
      start += ruleFiles.map { .load($0) }
      for command in start {
        let output = try session.run(command)
        if interactive, !output.isEmpty { REPLRunner.standardWrite(output, false) }
        for warning in session.takeWarnings() { REPLRunner.standardWrite(warning, true) }
      }
    } catch {
      fflush(nil)
      REPLRunner.standardWrite(
        format == "json" ? REPLSession.jsonError(error) : "error: " + REPLError.describe(error),
        true)
      throw ExitCode(2)
    }
    if let width = self.width, width < 1 {
      FileHandle.standardError.write(Data("error: --width must be at least 1\n".utf8))
      throw ExitCode(2)
    }
    if lintPlugin != nil, !lint {
      REPLRunner.standardWrite("error: --plugin goes with --lint", true)
      throw ExitCode(2)
    }
    if lint { throw ExitCode(runLint(session)) }
    // A transcript collects every command's output, pages included: they are not streamed.
    if let check { throw ExitCode(try runCheck(check, session: session)) }
    defer { if coverage { reportCoverage(session) } }
    session.pageOutput = StandardOutput()
    session.styles = REPLRunner.stylePages
    session.timing = timing
    session.tracing = trace
    var runner = REPLRunner(session: session, bail: bail)
    if !commands.isEmpty || script != nil {
      var ok = runner.runScript(commands)
      if let script, ok || !bail {
        guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
          FileHandle.standardError.write(Data("error: cannot read script \(script)\n".utf8))
          throw ExitCode(2)
        }
        ok =
          runner.runScript(
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) && ok
      }
      leaveToExit(session)
      if !ok { throw ExitCode(1) }
      return
    }
    if interactive {
      runner.bail = false
      LineEditor.runInteractive(runner)
      return
    }
    let lines = AnySequence { AnyIterator { readLine(strippingNewline: true) } }
    if !runner.runScript(lines) { throw ExitCode(1) }
  }

  /// What a one-shot run leaves to the process's exit, which frees it at once: the rule engine
  /// (its model and caches) and the registries, whose release object by object was 0.9 M of
  /// `-c entities`' 52 M instructions. The session itself still ends, closing its database.
  nonisolated(unsafe) static var leftToExit: [AnyObject] = []

  /// Keeps `session`'s engine and registries until the process exits (see ``leftToExit``).
  func leaveToExit(_ session: REPLSession) {
    Self.leftToExit = [
      session.context.engine, session.registry, session.looks, session.formatters,
      session.renderers, session.plugins,
    ]
  }

  func terminalWidth() -> Int {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 100
  }

  /// Runs the command line with `plugins` installed: a custom REPL is a `main.swift` of
  /// `D2SREPLCommand.main(plugins: [MyPlugin()])`. Bad arguments exit with status 2.
  public static func main(plugins: [any D2SPlugin] = [], arguments: [String]? = nil) -> Never {
    Self.plugins = plugins
    commandName = ExecutableName.of(CommandLine.arguments.first, fallback: "d2s-repl")
    do {
      let given = arguments ?? Array(CommandLine.arguments.dropFirst())
      if let command = parseFast(given) {
        try command.run()
      } else {
        var command = try parseAsRoot(given)
        try command.run()
      }
      Glibc.exit(0)
    } catch {
      fflush(nil)
      if let status = error as? ExitCode { Glibc.exit(status.rawValue) }
      if exitCode(for: error) == .success {
        print(fullMessage(for: error))
        Glibc.exit(0)
      }
      var message = fullMessage(for: error)  // ArgumentParser's own text starts with "Error: "
      if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
      FileHandle.standardError.write(Data(("error: " + message + "\n").utf8))
      Glibc.exit(2)
    }
  }
}
