import ArgumentParser
import Components
import D2SModel
import EnvKeys
import Foundation
import Plugins

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// What `d2s-repl`'s command line asks for, as plain values: ``D2SREPLCommand`` (parsed by
/// ArgumentParser) makes one, and so does the fast path for the plain forms, without the
/// option wrappers' set-up. `run()` does what they ask.
struct REPLOptions: Sendable {
  var database: String?
  var ruleFiles: [String] = []
  var commands: [String] = []
  var script: String?
  var bail = false
  var demo = false
  var reset = false
  var copy: String?
  var width: Int?
  var format: String?
  var csvSafe = false
  var csvShown = false
  var readOnly = false
  var maxToManyHops: Int?
  var check: String?
  var update = false
  var lint = false
  var lintPlugin: String?
  var coverage = false
  var timing = false
  var trace = false
  var version = false

  /// No option given.
  init() {}

  /// The options `command` was parsed to.
  init(_ command: D2SREPLCommand) {
    database = command.database
    ruleFiles = command.ruleFiles
    commands = command.commands
    script = command.script
    bail = command.bail
    demo = command.demo
    reset = command.reset
    copy = command.copy
    width = command.width
    format = command.format
    csvSafe = command.csvSafe
    csvShown = command.csvShown
    readOnly = command.readOnly
    maxToManyHops = command.maxToManyHops
    check = command.check
    update = command.update
    lint = command.lint
    lintPlugin = command.lintPlugin
    coverage = command.coverage
    timing = command.timing
    trace = command.trace
    version = command.version
  }

  /// Does what the options ask: print the version, copy the demo database, lint, check a
  /// transcript, run commands or a script, or start the interactive REPL.
  func run() throws {
    if version {
      print("d2s-repl \(D2SREPLCommand.version)")
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
    // The database named on the command line is opened on a thread of its own while the
    // plugins are installed: a start takes the longer of the two, not their sum (a
    // PostgreSQL server's round trips included). A transcript check opens a copy instead.
    let opening =
      demo || check != nil ? nil : database.map { DatabaseOpening($0, readOnly: readOnly) }
    do {
      session = try REPLSession(
        plugins: D2SREPLCommand.plugins, width: width, defaultLimit: interactive ? 20 : nil)
      session.readOnly = readOnly
      session.opening = opening
      session.maximumToManyHops = maxToManyHops
      var start: [REPLCommand] = []
      if let format {
        guard session.renderers.platforms.contains(format) else {
          throw REPLError(
            "unknown format '\(format)' (use \(session.renderers.platforms.joined(separator: ", ")))"
          )
        }
        start.append(.set(key: "platform", value: .string(format)))
      }
      if csvSafe || csvShown {
        guard format == "csv" else {
          throw REPLError("--csv-safe and --csv-shown go with --format csv")
        }
        session.csv = CSVOptions(shownText: csvShown, spreadsheetSafe: csvSafe)
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
      // The script is read before any command runs: a missing one is a start-up failure,
      // with nothing done.
      var lines: [String] = []
      if let script {
        do {
          lines = try TextFile.read(script).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        } catch {
          FileHandle.standardError.write(Data("error: cannot read script \(error)\n".utf8))
          throw ExitCode(2)
        }
      }
      var ok = runner.runScript(commands)
      if script != nil, ok || !bail { ok = runner.runScript(lines) && ok }
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
    REPLOptions.leftToExit = [
      session.context.engine, session.registry, session.looks, session.formatters,
      session.renderers, session.plugins,
    ]
  }

  func terminalWidth() -> Int {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return 100
  }

}
