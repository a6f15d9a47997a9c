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
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// The name help and usage lines give the command: the executable's (`d2s-repl`, or a
  /// custom REPL's own).
  nonisolated(unsafe) static var commandName = "d2s-repl"

  /// The command's name, abstract and help.
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
      "Output format for the whole run: terminal, markdown, json (JSON Lines), csv or a plugin's platform."
  )
  var format: String?

  @Flag(
    name: .customLong("csv-safe"),
    help:
      "With --format csv: a text cell a spreadsheet would run as a formula (=, +, -, @) gets a ' before it."
  )
  var csvSafe = false

  @Flag(
    name: .customLong("csv-shown"),
    help:
      "With --format csv: cells hold the text shown (formatters applied), not the stored values."
  )
  var csvShown = false

  @Flag(name: .customLong("read-only"), help: "Open databases read-only: browse, never write.")
  var readOnly = false

  @Option(
    name: .customLong("max-to-many-hops"),
    help:
      "The most to-many relationships a where or order path may cross (default: no limit; d2s-serve's is 1)."
  )
  var maxToManyHops: Int?

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

  /// A command with every option at its default.
  public init() {}

  /// The plugins `main(plugins:)` installs (set before the command line is parsed).
  nonisolated(unsafe) static var plugins: [any D2SPlugin] = []

  /// Runs the command line ``REPLOptions`` reads from the parsed options.
  public func run() throws {
    try REPLOptions(self).run()
  }

  /// Runs the command line with `plugins` installed: a custom REPL is a `main.swift` of
  /// `D2SREPLCommand.main(plugins: [MyPlugin()])`. Bad arguments exit with status 2.
  public static func main(plugins: [any D2SPlugin] = [], arguments: [String]? = nil) -> Never {
    Self.plugins = plugins
    commandName = ExecutableName.of(CommandLine.arguments.first, fallback: "d2s-repl")
    do {
      let given = arguments ?? Array(CommandLine.arguments.dropFirst())
      if let options = parseFast(given) {
        try options.run()
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
