import Components
import D2SApplication
import D2SModel
import EnvKeys
import Foundation
import Plugins
import Qualifiers
import RuleCore

/// The state of one REPL session, and the dispatch of commands to their implementations (in
/// `REPLSession+Family.swift` files): every command returns the text it prints, or throws; a
/// failed command changes nothing.
public final class REPLSession: @unchecked Sendable {
  /// The application the session drives: plugins, rules and the open database.
  public internal(set) var app: D2SApp
  /// The rule context pages are made in (database, entity, task, keys set by commands).
  public internal(set) var context: RuleContext {
    get { app.context }
    set { app.context = newValue }
  }
  /// The exposed keys commands and rules name.
  public var registry: D2SContextKVC { app.plugins.keys }
  /// The looks pages are rendered with.
  public var looks: LookRegistry { app.plugins.looks }
  /// The formatters values are shown and parsed with.
  public var formatters: FormatterRegistry { app.plugins.formatters }
  /// The renderers by platform (the builtin ones and the plugins').
  public var renderers: RendererRegistry { app.plugins.renderers }
  /// The installed plugins (the builtin one first).
  public var plugins: PluginRegistry { app.plugins }
  /// Terminal columns; nil for no limit (scripts without `--width` or `COLUMNS`).
  public var width: Int?
  /// Lists default to this limit (interactive sessions: 20; scripts: none).
  public var defaultLimit: Int?
  var list = ListRequest()
  /// The display group of the list page rendered last (for `next` and `prev`); nil when the
  /// last page rendered was no list.
  var shownList: DisplayGroup?
  /// The title of the list `follow` showed (`Actors of ACADEMY DINOSAUR`), until the next page.
  var followedTitle: String?
  var editing: EditingSession?
  /// Whether terminal pages show text styles with ANSI codes (d2s-repl: stdout a terminal
  /// and `NO_COLOR` unset).
  public var styles = false
  /// How pages on the `csv` platform write values (`--csv-safe`, `--csv-shown`).
  public var csv = CSVOptions()
  /// Whether `open` opens databases read-only (`--read-only`).
  public var readOnly = false
  /// A database already being opened (d2s-repl starts opening its argument before it makes
  /// the session): the next `open` of the same target, read-only alike, waits for it.
  public var opening: DatabaseOpening?
  /// The most to-many relationships a `where` or `order by` path may cross
  /// (`--max-to-many-hops`); nil: no limit, a person at a terminal may ask for slow queries.
  public var maximumToManyHops: Int?
  var sourceDepth = 0
  /// Rule files that `watch` reloads, by path.
  var watched: [String: WatchedFile] = [:]
  /// Whether the command running printed a page (JSON pages are not wrapped again).
  var renderedPage = false
  /// Where pages are written as they are rendered (standard output in d2s-repl); when nil,
  /// ``run(_:)-(String)`` returns each page as text.
  public var pageOutput: StandardOutput?
  /// Asks the person at the terminal (interactive sessions); nil in scripts, which do not ask.
  public var confirm: ((String) -> Bool)?
  /// `warning: …` lines of the commands run since the last ``takeWarnings()``: they go to
  /// stderr, not into a command's output.
  var warnings: [String] = []
  /// Whether a line of cost follows each command on stderr (`timing on`, `--timing`).
  public var timing = false
  /// Whether each command's statements and rule look-ups follow it on stderr (`trace on`,
  /// `--trace`).
  public var tracing = false

  /// The warnings collected since the last call, oldest first; clears them.
  public func takeWarnings() -> [String] {
    defer { warnings.removeAll() }
    return warnings
  }

  /// A session with `plugins` installed after the builtin one.
  public init(plugins: [any D2SPlugin] = [], width: Int? = 100, defaultLimit: Int? = nil) throws {
    app = try D2SApp(plugins: plugins)
    self.width = width
    self.defaultLimit = defaultLimit
    app.context.engine.coverage.start()
  }

  // MARK: - Running

  /// Runs one line; returns what it prints (possibly empty). A failed command changes nothing
  /// in the session (`source` keeps what its earlier lines did); a parse error points into
  /// `line` itself.
  public func run(_ line: String) throws -> String {
    guard let command = try CommandParser.parse(line) else { return "" }
    return try run(command)
  }

  /// Runs a parsed command; a failed command changes nothing in the session (`source` keeps
  /// what its earlier lines did).
  public func run(_ command: REPLCommand) throws -> String {
    if case .source = command { return try execute(command) }
    let saved = (app, list, editing, shownList)
    let database = context.database
    database?.forgetFailedRead()
    do {
      renderedPage = false
      let text: String
      do {
        text = try execute(command)
      } catch {
        // A refusal made on a relationship the database could not answer is not the reason.
        try database?.throwFailedRead()
        throw error
      }
      // A relationship the database could not answer was shown as none: the command fails.
      try context.database?.throwFailedRead()
      guard printsJSON, !renderedPage, !text.isEmpty else { return text }
      return try jsonOutput(of: command, text: text)
    } catch {
      (app, list, editing, shownList) = saved
      throw error
    }
  }

  /// Runs a command without the rollback of ``run(_:)-(REPLCommand)``.
  public func execute(_ command: REPLCommand) throws -> String {
    switch command {
    // Navigation (REPLSession+Navigation.swift)
    case .open(let target): try open(target)
    case .entities(let all): try entities(all: all)
    case .list(let entity, let clauses): try listPage(entity, clauses)
    case .count(let entity, let qualifier): try count(entity, qualifier)
    case .facets(let entity, let qualifier, let keys): try facets(entity, qualifier, keys)
    case .queryForm(let entity): try queryForm(entity)
    case .next: try page(by: 1)
    case .prev: try page(by: -1)
    case .position: try position()
    case .inspect(let entity, let key): try inspect(entity, key)
    case .inspectExplained: try explainedRows()
    case .follow(let name): try follow(name)
    case .render: try rerender()
    // Editing (REPLSession+Editing.swift)
    case .edit(let entity, let key): try edit(entity, key)
    case .new(let entity): try newObject(entity)
    case .setObject(let key, let value): try setObject(key, value)
    case .choose(let relationship, let qualifier): try choose(relationship, qualifier)
    case .save: try save()
    case .revert: try revert()
    case .delete(let entity, let key): try delete(entity, key)
    case .link(let entity, let key, let relationship, let destination, let remove):
      try link(entity, key, relationship, destination, remove: remove)
    case .login(let user, let password): try login(user, password)
    case .logout: logout()
    // Rules and rule tools (REPLSession+Rules.swift, +RuleTools.swift, +Watch.swift)
    case .rule(let text): try addRule(text)
    case .rules(let all, let key): try rules(all: all, key: key)
    case .drop(let n): try drop(n)
    case .load(let path): try load(path)
    case .write(let path, let force): try write(path, force: force)
    case .explain(let key, let property): try explainText(key, for: property)
    case .explainTree(let key, let property): try explainTree(key, for: property)
    case .whyNot(let label, let property): try whyNot(label, property: property)
    case .lint(let all): try lint(all: all)
    case .lintPlugin(let name): try lint(plugin: name)
    case .coverage(let all): coverage(all: all)
    case .watch(let path): try watch(path)
    case .unwatch(let path): try unwatch(path)
    // Introspection (REPLSession+Introspection.swift)
    case .set(let key, let value): try set(key, value)
    case .unset(let key): try unset(key)
    case .show(let key): try show(key)
    case .context: contextLines()
    case .keys: keyLines()
    case .looks: lookLines()
    case .plugins: pluginLines()
    case .formatters: formatterLines()
    case .help(let word): try REPLHelp.text(for: word)
    // Scripts (REPLSession+Scripts.swift)
    case .source(let path): try source(path)
    // Timing and trace (REPLSession+Trace.swift)
    case .timing(let on): setTiming(on)
    case .trace(let on): setTracing(on)
    case .quit: ""
    }
  }
}
