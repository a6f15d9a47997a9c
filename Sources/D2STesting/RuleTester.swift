import Components
import D2SModel
import EnvKeys
import Foundation
import Plugins
import Qualifiers
import RuleCore
import SQLiteAdaptor

/// A rule context for unit tests of rules and components: rule text (and plugins), keys set
/// by name, answers read as printed values together with the rule that produced them, pages
/// rendered to strings.
///
/// ```swift
/// let tester = try RuleTester(rules: "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'",
///   database: try TestDatabases.sakila())
///   .setting("entity", to: "'Actor'")
/// #expect(try tester.value("displayNameForEntity") == "'Moviestars'")
/// #expect(try tester.rule("displayNameForEntity") == "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'")
/// ```
public struct RuleTester: Sendable {
  /// The context answers are read in (the rules, plugins, database and keys set).
  public private(set) var context: RuleContext
  /// The installed plugins.
  public let plugins: PluginRegistry

  /// A context over `rules` (the user's), the plugins' rules and the builtin ones.
  public init(rules: String = "", plugins: [any D2SPlugin] = [], database: Database? = nil) throws {
    let registry = try PluginRegistry()
    for plugin in plugins { try registry.install(plugin) }
    let model = RuleModel(
      try RuleParser(registry: registry.keys, computations: registry.computations).parseRules(
        rules, file: "rules"))
    try self.init(model: model, registry: registry, database: database)
  }

  /// A context over rules written in Swift (the user's), the plugins' rules and the builtin
  /// ones.
  ///
  /// ```swift
  /// let tester = try RuleTester(rules: [\.entity?.name == "Actor" => \.displayNameForEntity <= "Moviestars"])
  /// ```
  /// - Throws: ``RuleDSLError`` naming each rule (with its `FILE:LINE`) whose keys the
  ///   builtin keys and the plugins' do not include, or whose constant does not fit its key.
  public init(rules: RuleModel, plugins: [any D2SPlugin] = [], database: Database? = nil) throws {
    let registry = try PluginRegistry()
    for plugin in plugins { try registry.install(plugin) }
    try self.init(model: rules, registry: registry, database: database)
  }

  private init(model: RuleModel, registry: PluginRegistry, database: Database?) throws {
    self.plugins = registry
    context = RuleContext(engine: try registry.makeEngine(rules: model))
    context.engine.coverage.start()
    if let database { context.database = database }
  }

  /// A copy with `key` set from a literal written as in the REPL (`'Actor'`, `('a', 'b')`).
  public func setting(_ key: String, to literal: String) throws -> RuleTester {
    var copy = self
    try copy.context.setValue(try QualifierParser.parseLiteral(literal), forKeyNamed: key)
    return copy
  }

  /// A copy with the object of `entity` with primary key `key` (one value or several).
  public func with(object entity: String, key: [DatabaseValue]) throws -> RuleTester {
    var copy = self
    guard let database = context.database,
      let object = try database.fetchObject(entity, primaryKey: key)
    else {
      throw DatabaseError(.notFound, "no \(entity) with key \(key)")
    }
    copy.context.entity = object.entity
    copy.context.object = object
    return copy
  }

  /// The printed value of `key` (`'Moviestars'`, `('a', 'b')`, `true`).
  public func value(_ key: String) throws -> String {
    let resolution = try context.resolution(forKeyNamed: key)
    return try context.exposedKey(named: key).describe(resolution.value)
  }

  /// The text of the rule that produced `key`'s value, or nil when it was set or defaulted.
  public func rule(_ key: String) throws -> String? {
    if case .rule(let numbered) = try context.resolution(forKeyNamed: key).source {
      return numbered.rule.description
    }
    return nil
  }

  /// The page for `task` (and `entity`), as the REPL would print it: of the tester's object
  /// (``with(object:key:)``) for `inspect` and `edit`, in the context's `platform`
  /// (`terminal` unless set: `setting("platform", to: "'json'")`), `width` columns wide.
  public func render(
    task: String, entity: String? = nil, width: Int? = 100, list: ListRequest = ListRequest()
  ) throws -> String {
    let application = PageApplication(
      base: context, looks: plugins.looks, formatters: plugins.formatters,
      renderers: plugins.renderers)
    return try application.render(
      PageRequest(task: task, entityName: entity, list: list, width: width))
  }
}

/// Databases for tests.
public enum TestDatabases {
  /// An in-memory SQLite database made from SQL text.
  public static func sqlite(_ sql: String) throws -> Database {
    let adaptor = try SQLiteAdaptor(path: ":memory:")
    try adaptor.executeScript(sql)
    return try Database(adaptor: adaptor)
  }

  /// A private copy of the bundled Sakila sample (SQLite).
  public static func sakila() throws -> Database { try SakilaSQLite.open() }

  /// A new SQLite file `<name>.db` (so the database is called `name`) in a folder of its own
  /// under this run's temporary folder, made from SQL text; returns its path.
  public static func sqliteFile(_ sql: String, named name: String) throws -> String {
    let folder = SakilaSQLite.copies.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name + ".db").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    try SQLiteAdaptor(path: path).executeScript(sql)
    return path
  }
}
