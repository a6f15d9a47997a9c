import Components
import D2SModel
import EnvKeys
import Plugins
import RuleCore

/// One D2S application, below every front end: the installed plugins, the rules, and the
/// database they browse. `d2s-repl`, `d2s-serve` and custom REPLs and servers are made from
/// it; its ``pages`` are the page function every front end renders, and the writing API
/// (``EditingSession``) edits, creates and deletes through its context with the rules'
/// permissions and the optimistic lock.
///
/// ```swift
/// var app = try D2SApp(plugins: [MyPlugin()])
/// try app.open("sakila.db")
/// try app.loadRules(atPath: "my.d2s")
/// let html = try app.pages.render(PageRequest(task: "inspect", entityName: "Film", key: [.int(1)], platform: "html"))
/// ```
public struct D2SApp: Sendable {
  /// The installed plugins (the builtin one first), with their keys, looks, formatters and
  /// renderers.
  public let plugins: PluginRegistry
  /// The context every page starts from: the rule engine and, once opened, the database.
  public var context: RuleContext
  /// Where the open database is; nil before ``open(_:readOnly:)``.
  public private(set) var location: DatabaseLocation?
  /// Whether the database was opened read-only.
  public private(set) var readOnly = false
  /// Warnings of the rules added since the last ``takeWarnings()`` (a rule that can never
  /// win, a key of the wrong type).
  public private(set) var warnings: [String] = []

  /// An application with `plugins` installed after the builtin one, and no database yet.
  ///
  /// - Throws: ``PluginError`` when two plugins claim the same key, look or formatter.
  public init(plugins: [any D2SPlugin] = []) throws {
    let registry = try PluginRegistry()
    for plugin in plugins { try registry.install(plugin) }
    self.plugins = registry
    context = RuleContext(engine: try registry.makeEngine())
  }

  /// Opens the database `target` names (an SQLite file or `sqlite:PATH`, or a PostgreSQL URL
  /// or conninfo: ``DatabaseLocation``) and reads its model; keys set on the context stay,
  /// what belonged to the database before (entity, object, user) goes.
  ///
  /// - Returns: the database.
  @discardableResult
  public mutating func open(_ target: String, readOnly: Bool = false) throws -> Database {
    let location = DatabaseLocation(target)
    let database = try Database(adaptor: try location.connect(readOnly: readOnly))
    try adopt(database, at: location, readOnly: readOnly)
    return database
  }

  /// Opens the database `opening` has been opening on its own thread (waiting for it), as
  /// ``open(_:readOnly:)`` opens its target.
  ///
  /// - Returns: the database.
  @discardableResult
  public mutating func open(_ opening: DatabaseOpening) throws -> Database {
    let database = try opening.database()
    try adopt(database, at: opening.location, readOnly: opening.readOnly)
    return database
  }

  /// Makes `database` the context's: keys set on the context stay, what belonged to the
  /// database before goes.
  private mutating func adopt(
    _ database: Database, at location: DatabaseLocation, readOnly: Bool
  ) throws {
    var next = RuleContext(engine: context.engine, values: DynamicEnvironmentValues())
    let dropped: Set<String> = [
      "database", "model", "entity", "object", "user", "auxiliaryQualifier", "task",
    ]
    for (key, value) in context.explicitKeys where !dropped.contains(key.name) {
      try next.setValue(value, forKeyNamed: key.name)
    }
    next.database = database
    context = next
    context.engine.clearCache()
    self.location = location
    self.readOnly = readOnly
  }

  /// A new connection to the open database (a server's pool opens its readers with it).
  ///
  /// - Throws: ``ApplicationError`` when no database is open.
  public func connect() throws -> any DatabaseAdaptor {
    guard let location else { throw ApplicationError("no database is open") }
    return try location.connect(readOnly: readOnly)
  }

  /// Adds the rule `text` (`entity.name = 'Film' => isEntityReachable = false`) to the user's
  /// rules, above every plugin's.
  ///
  /// - Returns: the rule's number.
  @discardableResult
  public mutating func addRule(_ text: String) throws -> Int {
    let rule = try context.engine.parser.parseRule(text)
    let (id, added) = context.engine.ruleModel.add(rule)
    warnings += added.map(\.description)
    return id
  }

  /// Adds the rules of the file at `path`: all of them, or none.
  ///
  /// - Returns: how many rules were added.
  @discardableResult
  public mutating func loadRules(atPath path: String) throws -> Int {
    let rules = try context.engine.parser.parsePlacedRuleFile(atPath: path)
    warnings += context.engine.ruleModel.add(contentsOf: rules).map(\.description)
    return rules.count
  }

  /// The warnings collected since the last call, oldest first; clears them.
  public mutating func takeWarnings() -> [String] {
    defer { warnings.removeAll() }
    return warnings
  }

  /// The page function: a ``PageRequest`` to a view tree or to the bytes of its platform's
  /// renderer, with this application's looks, formatters and renderers.
  public var pages: PageApplication {
    PageApplication(
      base: context, looks: plugins.looks, formatters: plugins.formatters,
      renderers: plugins.renderers)
  }

  /// The names people type, matched against the open database's model as ``context``'s
  /// rules allow (``ModelNames``).
  public func names(_ policy: ModelNames.Policy = .everything) -> ModelNames {
    ModelNames(context: context, policy: policy)
  }
}
