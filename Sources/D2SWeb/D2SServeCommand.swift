import ArgumentParser
import Components
import D2SApplication
import D2SModel
import Foundation
import Hummingbird
import Logging
import Plugins
import ServiceLifecycle

/// `d2s-serve DB [--host 127.0.0.1] [--port 8080] [--rules FILE]… [--watch] [--read-only]
/// [--demo]`: the database in a browser, from the same rules and views as `d2s-repl`.
public struct D2SServeCommand: AsyncParsableCommand {
  /// The name help and usage lines give the command: the executable's (`d2s-serve`, or a
  /// custom server's own).
  nonisolated(unsafe) static var commandName = "d2s-serve"

  /// The command's name, abstract and help.
  public static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: commandName,
      abstract: "Browse a database in a web browser, shaped by rules (Direct to Web for Linux).")
  }

  @Argument(help: "An SQLite file (or sqlite:PATH) or a postgresql:// URL.")
  var database: String?

  @Option(help: "The address to listen on (default 127.0.0.1: this machine only).")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: a free one, printed at start).")
  var port = 8080

  @Option(name: .customLong("rules"), help: "A rule file to load (repeatable).")
  var ruleFiles: [String] = []

  @Flag(help: "Reload the rule files when they change (all or nothing, as the REPL's watch).")
  var watch = false

  @Option(
    name: .customLong("rules-output"),
    help:
      "A rule file that users the rules allow (mayEditRules) add rules to from the pages' explanations; loaded last and watched (made when missing)."
  )
  var rulesOutput: String?

  @Flag(name: .customLong("read-only"), help: "Open the database read-only.")
  var readOnly = false

  @Flag(help: "Serve the bundled Sakila sample with the demo rules.")
  var demo = false

  @Option(
    name: .customLong("allow-host"),
    help: "A host name requests may be addressed to, besides localhost (repeatable).")
  var allowedHosts: [String] = []

  @Option(
    name: .customLong("statement-timeout"),
    help: "Seconds a logged-in user's request's statements may run before they are stopped.")
  var statementTimeout = 30.0

  @Option(
    name: .customLong("anonymous-statement-timeout"),
    help: "Seconds an anonymous visitor's request's statements may run before they are stopped.")
  var anonymousStatementTimeout = 10.0

  @Option(
    name: .customLong("max-to-many-hops"),
    help:
      "The most to-many relationships a where= or order= path may cross (a many-to-many through its link table counts as one)."
  )
  var maxToManyHops = 1

  @Option(
    name: .customLong("connections-per-client"),
    help:
      "The most database connections one client address holds at once; its further requests wait (default: all but one)."
  )
  var connectionsPerClient: Int?

  @Flag(
    name: .customLong("shared-sessions"),
    help:
      "Keep sessions in the PostgreSQL database served (schema d2s), shared by every d2s-serve over it; give them all one --secret-file."
  )
  var sharedSessions = false

  @Option(
    name: .customLong("agent-calls-per-minute"),
    help: "The most calls an agent's bearer token makes in a minute at /-/mcp (429 after).")
  var agentCallsPerMinute = 600

  @Option(name: .customLong("log-format"), help: "How log lines are written: text or json.")
  var logFormat = "text"

  @Option(
    help:
      "The most database connections open at once (default: two per core and one more for SQLite, whose reads are work for this machine's cores, 8 for PostgreSQL; and one more kept for other addresses than the busiest)."
  )
  var connections: Int?

  @Option(
    name: .customLong("secret-file"),
    help: "A file of at least 32 bytes (mode 600) that signs sessions; default: a new key at start."
  )
  var secretFile: String?

  @Flag(name: .customLong("https-only"), help: "Mark cookies Secure (behind an HTTPS proxy).")
  var httpsOnly = false

  @Flag(
    help:
      "Give every response a Server-Timing header: its statements, rule look-ups and render time, as d2s-repl's timing line."
  )
  var timing = false

  @Option(
    name: .customLong("request-timeout"),
    help:
      "Seconds a connection may send no complete request (a slow client) before it is closed."
  )
  var requestTimeout: Double = 30

  @Option(
    name: .customLong("page-cache"),
    help:
      "Megabytes of rendered pages kept for anonymous visitors, reused while the database is unchanged (SQLite; 0: none)."
  )
  var pageCache: Int = 16

  /// A command with every option at its default.
  public init() {}

  /// The plugins `main(plugins:)` installs.
  nonisolated(unsafe) static var plugins: [any D2SPlugin] = []

  /// Opens the database, loads the rules and serves until SIGINT or SIGTERM.
  public func run() async throws {
    guard ["text", "json"].contains(logFormat) else {
      throw ValidationError("--log-format is text or json")
    }
    var logger =
      logFormat == "json"
      ? Logger(label: "d2s-serve", factory: { TextLogHandler(label: $0, format: .json) })
      : Logger(label: "d2s-serve")
    logger.logLevel = .notice
    let target: String
    var rules = ruleFiles
    if demo {
      target = try Demo.database(reset: false)
      rules.insert(try Demo.rulesPath(), at: 0)
    } else if let database {
      target = database
    } else {
      throw ValidationError("give a database (an SQLite file or a postgresql:// URL), or --demo")
    }
    guard pageCache >= 0, pageCache <= 1 << 20 else {
      throw ValidationError("--page-cache is a number of megabytes, 0 or more")
    }
    // Seconds a millisecond at least (they are kept in milliseconds), a year at most (`inf`
    // would trap where they are counted); connections a number a machine can open.
    let seconds = 0.001...31_536_000.0
    guard seconds.contains(statementTimeout), seconds.contains(anonymousStatementTimeout),
      seconds.contains(requestTimeout)
    else {
      throw ValidationError(
        "--statement-timeout, --anonymous-statement-timeout and --request-timeout are seconds from 0.001 to 31536000 (a year)"
      )
    }
    guard connections.map({ (1...10_000).contains($0) }) ?? true,
      connectionsPerClient.map({ (1...10_000).contains($0) }) ?? true
    else {
      throw ValidationError("--connections and --connections-per-client are from 1 to 10000")
    }
    guard maxToManyHops >= 0, agentCallsPerMinute > 0 else {
      throw ValidationError(
        "--agent-calls-per-minute must be positive; --max-to-many-hops 0 or more")
    }
    let keys = try secretFile.map { try SessionKeys.read(file: $0) } ?? .random()
    HeapPadding.apply()
    if let rulesOutput {
      try RulesOutputFile.prepare(rulesOutput)
      rules.append(rulesOutput)
    }
    let setup = try WebSetup(
      target: target, ruleFiles: rules, readOnly: readOnly, plugins: Self.plugins)
    if sharedSessions, !setup.isPostgreSQL {
      throw ValidationError(
        "--shared-sessions keeps sessions in PostgreSQL: serve a postgresql:// database")
    }
    let application = WebApplication(
      pages: setup.pages,
      pool: setup.pool(
        size: connections, timeout: statementTimeout, sharePerClient: connectionsPerClient),
      databaseName: setup.databaseName,
      configuration: WebApplication.Configuration(
        allowedHosts: Set(allowedHosts.map { $0.lowercased() } + [host.lowercased()]),
        readOnly: readOnly, httpsOnly: httpsOnly, timing: timing,
        requestTimeout: .milliseconds(Int(requestTimeout * 1000)),
        pageCacheBytes: pageCache << 20, maximumToManyHops: maxToManyHops,
        anonymousStatementTimeout: .milliseconds(Int(anonymousStatementTimeout * 1000)),
        sharedSessions: sharedSessions ? target : nil, structuredLog: logFormat == "json",
        agentCallsPerMinute: agentCallsPerMinute),
      keys: keys, logger: logger)
    if !["127.0.0.1", "localhost", "::1"].contains(host) {
      logger.warning(
        "listening on \(host): other machines can reach this server; it has no logins yet")
    }
    let files = rules
    let readOnly = self.readOnly
    let plugins = Self.plugins
    let reload: @Sendable () throws -> Void = { [weak application] in
      let fresh = try WebSetup(
        target: target, ruleFiles: files, readOnly: readOnly, plugins: plugins)
      application?.replace(fresh.pages)
    }
    if let rulesOutput {
      application.assistant = RuleAssistant(
        output: RulesOutputFile(path: rulesOutput), ruleFiles: files, plugins: plugins,
        reload: reload)
    }
    // The output file is watched whatever --watch says: another server may add to it.
    let watcher =
      watch || rulesOutput != nil
      ? RuleWatcher(
        files: watch ? files : rulesOutput.map { [$0] } ?? [], logger: logger, reload: reload)
      : nil
    let shownHost = host.contains(":") ? "[\(host)]" : host
    // The pool and the rule watcher run beside the server in its service group: SIGTERM lets
    // the requests in flight finish, then stops the watcher and closes the idle connections.
    let services: [any Service] =
      [PoolService(pool: application.pool)] + (watcher.map { [$0] } ?? [])
    let server = application.server(host: host, port: port, logger: logger, services: services) {
      bound in
      FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(bound)\n".utf8))
    }
    try await server.runService()
  }

  /// Runs the command line with `plugins` installed: a custom server is a `main.swift` of
  /// `await D2SServeCommand.main(plugins: [MyPlugin()])`.
  public static func main(plugins: [any D2SPlugin] = [], arguments: [String]? = nil) async {
    Self.plugins = plugins
    commandName = ExecutableName.of(CommandLine.arguments.first, fallback: "d2s-serve")
    // Log lines (warnings, errors, reloads) go to standard error; standard output says only
    // where the server listens.
    LoggingSystem.bootstrap { TextLogHandler(label: $0) }
    do {
      var command = try parseAsRoot(arguments)
      if let server = command as? D2SServeCommand {
        try await server.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}

/// What a server is made from: the application (plugins, rules, the database) as d2s-serve
/// sets it up, and how to open more connections to its database.
struct WebSetup {
  let pages: PageApplication
  let databaseName: String
  let model: Model
  let open: DatabasePool.Opener
  /// Whether the database is PostgreSQL (else an SQLite file).
  let isPostgreSQL: Bool

  init(target: String, ruleFiles: [String], readOnly: Bool, plugins: [any D2SPlugin]) throws {
    // Anonymous visitors browse and never write; a rule of the user's may open writes.
    var app = try D2SApp(plugins: [ServerRules()] + plugins)
    let database = try app.open(target, readOnly: readOnly)
    for file in ruleFiles { try app.loadRules(atPath: file) }
    for warning in app.takeWarnings() {
      FileHandle.standardError.write(Data((warning + "\n").utf8))
    }
    pages = app.pages
    databaseName = database.name
    model = database.model
    isPostgreSQL = app.location?.isPostgreSQL ?? false
    self.open = { [app] in try app.connect() }
  }

  /// The pool of readers: `size` connections, or by default two per core and one more for
  /// SQLite (a read is work for this machine's cores, but a page holds its connection while its
  /// thread waits its turn beside the server's other threads: with one per core, the cores sat
  /// idle 5.6% of the time under 64 connections, 1.4% with two, and the list page made anew
  /// went from 4,022 to 4,700 a second) and 8 for PostgreSQL (whose connections wait on the
  /// server), and one more again that one client address never holds (its share is all but
  /// one): slow requests from one address leave it for everyone else's.
  func pool(size: Int?, timeout: Double, sharePerClient: Int? = nil) -> DatabasePool {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    return DatabasePool(
      size: size ?? (isPostgreSQL ? 8 : 2 * cores + 1) + 1,
      statementTimeout: .milliseconds(Int(timeout * 1000)), model: model,
      sharePerClient: sharePerClient, open: open)
  }
}

/// `--watch`: looks at the rule files every half second and reloads them all when one
/// changed; a file with an error leaves the rules as they were (and says why in the log). A
/// service of the server's group: it stops when the server shuts down.
struct RuleWatcher: Service {
  let files: [String]
  let logger: Logger
  let reload: @Sendable () throws -> Void
  /// The files as they were when the watcher was made, once the rules were loaded and before
  /// the server listens: a change made before `run` begins (a busy machine may start it late)
  /// is still a change.
  private let loaded: [String?]

  init(files: [String], logger: Logger, reload: @escaping @Sendable () throws -> Void) {
    self.files = files
    self.logger = logger
    self.reload = reload
    loaded = Self.snapshot(files)
  }

  func run() async throws {
    await cancelWhenGracefulShutdown {
      var last = loaded
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(500))
        let now = Self.snapshot(files)
        guard now != last else { continue }
        last = now
        do {
          try reload()
          logger.notice("reloaded \(files.joined(separator: ", "))")
        } catch {
          logger.error("rules not reloaded: \(error)")
        }
      }
    }
  }

  private static func snapshot(_ files: [String]) -> [String?] {
    files.map { try? String(contentsOfFile: $0, encoding: .utf8) }
  }
}

extension WebApplication {
  /// The application serving `target` (an SQLite file or a PostgreSQL URL) with the rule
  /// files `rules` loaded, as `d2s-serve` makes it: `connections` readers whose statements
  /// stop after `statementTimeout` seconds.
  /// With `rulesOutput`, the rule assistant adds rules to that file (loaded last; the
  /// application reloads it after each change, as a watching server does).
  public static func open(
    _ target: String, rules: [String] = [], readOnly: Bool = false,
    plugins: [any D2SPlugin] = [], configuration: Configuration = Configuration(),
    connections: Int? = nil, statementTimeout: Double = 30, keys: SessionKeys = .random(),
    logger: Logger = Logger(label: "d2s-serve"), rulesOutput: String? = nil
  ) throws -> WebApplication {
    var rules = rules
    if let rulesOutput {
      try RulesOutputFile.prepare(rulesOutput)
      rules.append(rulesOutput)
    }
    let setup = try WebSetup(target: target, ruleFiles: rules, readOnly: readOnly, plugins: plugins)
    var configuration = configuration
    configuration.readOnly = configuration.readOnly || readOnly
    let application = WebApplication(
      pages: setup.pages, pool: setup.pool(size: connections, timeout: statementTimeout),
      databaseName: setup.databaseName, configuration: configuration, keys: keys, logger: logger)
    if let rulesOutput {
      let files = rules
      application.assistant = RuleAssistant(
        output: RulesOutputFile(path: rulesOutput), ruleFiles: rules, plugins: plugins,
        reload: { [weak application] in
          let fresh = try WebSetup(
            target: target, ruleFiles: files, readOnly: readOnly, plugins: plugins)
          application?.replace(fresh.pages)
        })
    }
    return application
  }
}
