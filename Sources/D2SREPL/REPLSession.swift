import Components
import D2SModel
import EnvKeys
import Foundation
import Plugins
import PostgreSQLAdaptor
import Qualifiers
import RuleCore
import SQLiteAdaptor

/// The state of one REPL session and the command implementations: every command returns the
/// text it prints, or throws; a failed command changes nothing.
public final class REPLSession: @unchecked Sendable {
  public private(set) var context: RuleContext
  public let registry: D2SContextKVC
  public let looks: LookRegistry
  public let formatters: FormatterRegistry
  /// The installed plugins (the builtin one first).
  public let plugins: PluginRegistry
  /// Terminal columns.
  public var width: Int
  /// Lists default to this limit (interactive sessions: 20; scripts: none).
  public var defaultLimit: Int?
  var list = ListRequest()
  var editing: EditingSession?
  var sourceDepth = 0
  /// Asks the person at the terminal (interactive sessions); nil in scripts, which do not ask.
  public var confirm: ((String) -> Bool)?
  /// `warning: …` lines of the commands run since the last ``takeWarnings()``: they go to
  /// stderr, not into a command's output.
  private var warnings: [String] = []

  /// The warnings collected since the last call, oldest first; clears them.
  public func takeWarnings() -> [String] {
    defer { warnings.removeAll() }
    return warnings
  }
  static let maximumSourceDepth = 16
  /// Keys that move the session to another page: changing them leaves an edit.
  static let navigationKeys: Set<String> = ["task", "entity", "object"]

  /// A session with `plugins` installed after the builtin one.
  public init(plugins: [any D2SPlugin] = [], width: Int = 100, defaultLimit: Int? = nil) throws {
    let installer = try PluginRegistry()
    for plugin in plugins { try installer.install(plugin) }
    self.plugins = installer
    self.registry = installer.keys
    self.looks = installer.looks
    self.formatters = installer.formatters
    self.width = width
    self.defaultLimit = defaultLimit
    context = RuleContext(engine: try installer.makeEngine())
  }

  var environment: RenderEnvironment {
    RenderEnvironment(looks: looks, formatters: formatters, width: width, list: list)
  }

  var database: Database {
    get throws {
      guard let database = context.database else { throw REPLError("no database is open (use `open DATABASE`)") }
      return database
    }
  }

  /// Runs one line; returns what it prints (possibly empty). A failed command changes nothing
  /// in the session (`source` keeps what its earlier lines did); a parse error points into
  /// `line` itself.
  public func run(_ line: String) throws -> String {
    try pointingParseErrors(into: line) {
      guard let command = try CommandParser.parse(line) else { return "" }
      return try run(command)
    }
  }

  /// Runs a parsed command; a failed command changes nothing in the session (`source` keeps
  /// what its earlier lines did).
  public func run(_ command: REPLCommand) throws -> String {
    if case .source = command { return try execute(command) }
    let saved = (context, list, editing)
    do {
      return try execute(command)
    } catch {
      (context, list, editing) = saved
      throw error
    }
  }

  /// Runs `body`, moving a parse error of one line of typed text to `line` itself.
  func pointingParseErrors<T>(into line: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ParseError where error.file == nil && error.location.line == 1 {
      throw error.rebased(into: line)
    }
  }

  // MARK: - Commands

  public func execute(_ command: REPLCommand) throws -> String {
    switch command {
    case .open(let target): return try open(target)
    case .entities:
      try leaveEditing()
      try navigate(task: "query", entity: nil, object: nil)
      return try render()
    case .list(let entity, let clauses): return try listPage(entity, clauses)
    case .next: return try page(by: 1)
    case .prev: return try page(by: -1)
    case .inspect(let entity, let key):
      try leaveEditing()
      let object = try fetch(entity, key)
      try navigate(task: "inspect", entity: object.entity, object: object)
      return try render()
    case .edit(let entity, let key):
      try leaveEditing()
      let object = try fetch(entity, key)
      var probe = context
      probe.auxiliaryQualifier = nil
      let session = try EditingSession.edit(object, in: probe, formatters: formatters)
      try navigate(task: "edit", entity: object.entity, object: object)
      editing = session
      return try render()
    case .new(let entity):
      try leaveEditing()
      let session = try EditingSession.new(try self.entity(entity).name, in: context, formatters: formatters)
      try navigate(task: "edit", entity: session.object.entity, object: session.object)
      editing = session
      return try render()
    case .setObject(let key, let value):
      guard let editing else { throw REPLError("not editing: use `edit ENTITY KEY` or `new ENTITY` first") }
      try editing.set(try propertyName(key, in: editing.object.entity), to: value)
      return ""
    case .choose(let relationship, let qualifierText):
      guard let editing else { throw REPLError("not editing: use `edit ENTITY KEY` first") }
      let name = try propertyName(relationship, in: editing.object.entity)
      var child = context
      child.task = "select"
      child.relationship = editing.object.entity.relationship(named: name)
      guard let chosen = child.relationship, !chosen.isToMany, let destination = try database.model.entity(named: chosen.destinationName) else {
        throw REPLError("\(name) is not a to-one relationship")
      }
      var environment = environment
      environment.list = ListRequest(
        qualifier: try qualifierText.map { try matchedQualifier(try parseQualifier($0), from: destination) }, limit: defaultLimit)
      return try environment.renderPage(child)
    case .save:
      guard let editing else { throw REPLError("not editing: nothing to save") }
      let wasNew = editing.object.isNew
      try editing.save()
      try navigate(task: "edit", entity: editing.object.entity, object: editing.object)
      _ = wasNew
      return "saved \(editing.object.entity.name) \(editing.object.primaryKeyDescription)"
    case .revert:
      guard let editing else { throw REPLError("not editing: nothing to revert") }
      editing.revert()
      return "reverted \(editing.object.entity.name) \(editing.object.primaryKeyDescription)"
    case .delete(let entity, let key):
      let object = try fetch(entity, key)
      func isThisRow(_ other: DatabaseObject?) -> Bool {
        other.map { $0.entity.name == object.entity.name && !$0.isNew && $0.primaryKeyValues == object.primaryKeyValues } ?? false
      }
      if isThisRow(editing?.object), editing?.object.hasChanges == true { try leaveEditing() }  // save or revert first
      if let confirm, !confirm("delete \(object.displayDescription)? [y/N] ") {
        return "not deleted"
      }
      try EditingSession.delete(object, in: context)
      if isThisRow(editing?.object) { editing = nil }
      if isThisRow(context.object) {  // the page showed the deleted row: show its list instead
        try navigate(task: "list", entity: object.entity, object: nil)
        list = ListRequest(limit: defaultLimit)
      }
      return "deleted \(object.entity.name) \(object.primaryKeyDescription)"
    case .follow(let name): return try follow(name)
    case .login(let user, let password):
      let found = try Login.authenticate(login: user, password: password, in: context)
      context.user = found
      return "logged in as \(found.displayDescription)"
    case .logout:
      context.removeValue(for: D2SKeys.User.self)
      return "logged out"
    case .set(let key, let value):
      if Self.navigationKeys.contains(key) { try leaveEditing() }
      var next = context
      try next.setValue(value, forKeyNamed: key)
      context = next
      return ""
    case .unset(let key):
      if Self.navigationKeys.contains(key) { try leaveEditing() }
      try context.removeValue(forKeyNamed: key)
      return ""
    case .show(let key): return try show(key)
    case .explain(let key): return try context.explain(keyNamed: key).description
    case .rule(let text):
      let rule = try context.engine.parser.parseRule(text)
      let (id, added) = context.engine.ruleModel.add(rule)
      warnings += added.map(\.description)
      return "rule \(id) added"
    case .rules(let all, let key):
      if let key { _ = try context.exposedKey(named: key) }  // an unknown key is an error, not an empty list
      return rules(all: all, key: key)
    case .drop(let n):
      guard context.engine.ruleModel.remove(id: n) != nil else { throw REPLError("there is no rule \(n) (see `rules`)") }
      return "dropped rule \(n)"
    case .load(let path):
      let rules = try context.engine.parser.parseRuleFile(atPath: path)
      warnings += context.engine.ruleModel.add(contentsOf: rules).map(\.description)
      return "loaded \(rules.count) rules from \(path)"
    case .write(let path):
      let rules = context.engine.ruleModel.rules.map(\.rule.description)
      do {
        try (rules.joined(separator: "\n") + (rules.isEmpty ? "" : "\n")).write(toFile: path, atomically: true, encoding: .utf8)
      } catch {
        throw REPLError("cannot write \(path): \((error as NSError).localizedDescription)")
      }
      return "wrote \(rules.count) rules to \(path)"
    case .source(let path): return try source(path)
    case .render:
      try refetchShownObject()
      return try render()
    case .context:
      return context.explicitKeys.map { "\($0.key.name) = \($0.key.describe($0.value))" }.joined(separator: "\n")
    case .keys:
      return registry.allKeys.map { "\($0.name): \($0.valueTypeName) = \($0.describe($0.defaultValue))" }.joined(separator: "\n")
    case .looks:
      return looks.catalog.map { "\($0.look): \($0.components.joined(separator: ", "))" }.joined(separator: "\n")
    case .plugins:
      return plugins.installed.map { $0 == "builtin" ? "builtin (the D2S keys, BasicLook, the formatters, the default rules)" : $0 }
        .joined(separator: "\n")
    case .help(let word): return try REPLHelp.text(for: word)
    case .quit: return ""
    }
  }

  /// The `firstTask` page (`query`, or `login` when a rule says so), shown at start.
  public func firstPage() throws -> String {
    try navigate(task: context.firstTask, entity: nil, object: nil)
    return try render()
  }

  // MARK: - Helpers

  func open(_ target: String) throws -> String {
    try leaveEditing()
    let adaptor: any DatabaseAdaptor
    if target.hasPrefix("postgresql://") || target.hasPrefix("postgres://") || target.contains("=") {
      adaptor = try PostgreSQLAdaptor(url: target)
    } else {
      adaptor = try SQLiteAdaptor(path: target)
    }
    let database = try Database(adaptor: adaptor)
    var next = RuleContext(engine: context.engine, values: DynamicEnvironmentValues())
    for (key, value) in context.explicitKeys where !["database", "model", "entity", "object", "user", "auxiliaryQualifier", "task"].contains(key.name) {
      try next.setValue(value, forKeyNamed: key.name)
    }
    next.database = database
    context = next
    context.engine.clearCache()
    list = ListRequest()
    return "opened \(database.name): \(database.model.entities.count) entities"
  }

  func entity(_ name: String) throws -> Entity {
    let model = try database.model
    if let entity = model.lookupEntity(name) { return entity }
    throw NameMatching.notFound("no entity named \(name)", name, among: model.entities.map(\.name))
  }

  /// A property name matched exactly, else case-insensitively when unique.
  func propertyName(_ name: String, in entity: Entity) throws -> String {
    let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    if let match = NameMatching.match(name, among: names) { return match }
    throw NameMatching.notFound("\(entity.name) has no property '\(name)'", name, among: names)
  }

  func fetch(_ entityName: String, _ key: [Literal]) throws -> DatabaseObject {
    let entity = try self.entity(entityName)
    let keys = entity.primaryKeyAttributes
    guard !keys.isEmpty else { throw REPLError("\(entity.name) has no primary key: list it instead") }
    guard keys.count == key.count else {
      throw REPLError("\(entity.name) has a key of \(keys.count) values (\(keys.map(\.name).joined(separator: ", ")))")
    }
    let values = try zip(keys, key).map { attribute, literal -> DatabaseValue in
      if case .string(let text) = literal, attribute.valueType == .int {
        if let number = Int(text) { return .int(number) }
        if text.drop(while: { $0 == "-" }).allSatisfy(\.isNumber), text.contains(where: \.isNumber) {
          throw REPLError("\(text) is out of range for \(attribute.name) (a whole number of 64 bits)")
        }
      }
      return try DatabaseValue.coerce(literal, to: attribute)
    }
    guard let object = try database.fetchObject(entity.name, primaryKey: values) else {
      let shown = key.map { if case .string(let s) = $0 { s } else { $0.description } }.joined(separator: ",")
      throw REPLError("no \(entity.name) with \(keys.count == 1 ? keys[0].name : "key") \(shown)")
    }
    return object
  }

  func parseQualifier(_ text: String) throws -> Qualifier {
    try QualifierParser.parse(text)
  }

  /// Moves the session to a page: task, entity and object overwritten, the to-many filter cleared.
  func navigate(task: String, entity: Entity?, object: DatabaseObject?, auxiliary: Qualifier? = nil) throws {
    var next = context
    next.task = task
    if let entity { next.entity = entity } else { next.removeValue(for: D2SKeys.EntityKey.self) }
    if let object { next.object = object } else { next.removeValue(for: D2SKeys.Object.self) }
    if let auxiliary { next.auxiliaryQualifier = auxiliary } else { next.removeValue(for: D2SKeys.AuxiliaryQualifier.self) }
    context = next
  }

  /// Leaving an object with unsaved changes is an error until `save` or `revert`.
  func leaveEditing() throws {
    if let editing, editing.object.hasChanges {
      throw REPLError("\(editing.object.entity.name) \(editing.object.isNew ? "(new)" : editing.object.primaryKeyDescription) has unsaved changes: save or revert first")
    }
    editing = nil
  }

  /// `render` re-runs the fetch: the object shown (when not being edited) is read again.
  func refetchShownObject() throws {
    guard editing == nil, let object = context.object, !object.isNew, !object.entity.primaryKeyAttributeNames.isEmpty else { return }
    guard let fresh = try database.fetchObject(object.entity.name, primaryKey: object.primaryKeyValues) else {
      throw REPLError("\(object.entity.name) \(object.primaryKeyDescription) no longer exists")
    }
    context.object = fresh
  }

  /// The page for the context. A rule error met while rendering (a cycle) fails the
  /// command instead of showing defaults.
  func render() throws -> String {
    let (text, errors) = try context.engine.collectingReadErrors { try environment.renderPage(context) }
    if let first = errors.first { throw first }
    return String(text.dropLast())
  }

  func listPage(_ entityName: String, _ clauses: ListClauses) throws -> String {
    try leaveEditing()
    let entity = try self.entity(entityName)
    let request = ListRequest(
      qualifier: try clauses.qualifier.map { try matchedQualifier(try parseQualifier($0), from: entity) },
      sortOrderings: try clauses.orderings.map {
        SortOrdering(try matchedPath(KVCPath($0.key), from: entity).description, ascending: $0.ascending)
      },
      limit: clauses.limit ?? defaultLimit, offset: clauses.offset ?? 0)
    let previous = (context, list)
    try navigate(task: "list", entity: entity, object: nil)
    list = request
    do {
      return try render()
    } catch {
      (context, list) = previous
      throw error
    }
  }

  func page(by direction: Int) throws -> String {
    guard context.task == "list", let limit = list.limit, limit > 0, let entity = context.entity else {
      throw REPLError("no paged list to move in (list with a limit first)")
    }
    if direction < 0 {
      guard list.offset > 0 else { throw REPLError("already at the first page") }
    } else {
      let parts = [list.qualifier, context.auxiliaryQualifier].compactMap { $0 }
      let total = try database.count(FetchSpecification(entityName: entity.name, qualifier: parts.isEmpty ? nil : .all(parts)))
      guard list.offset + limit < total else { throw REPLError("already at the last page") }
    }
    let previous = list
    list.offset = max(0, list.offset + direction * limit)
    do { return try render() } catch {
      list = previous
      throw error
    }
  }

  func follow(_ name: String) throws -> String {
    guard context.task == "inspect", let object = context.object else { throw REPLError("follow works from an inspected object") }
    try leaveEditing()
    let property = try propertyName(name, in: object.entity)
    guard let relationship = object.entity.relationship(named: property) else { throw REPLError("\(property) is not a relationship") }
    if relationship.isToMany {
      guard let destination = try database.model.entity(named: relationship.destinationName) else { throw REPLError("no destination") }
      let qualifier = try database.qualifier(for: relationship, of: object)
      try navigate(task: "list", entity: destination, object: nil, auxiliary: qualifier)
      list = ListRequest(limit: defaultLimit)
      return try render()
    }
    guard let target = try object.related(property) else { throw REPLError("\(object.entity.name) \(object.primaryKeyDescription) has no \(property)") }
    try navigate(task: "inspect", entity: target.entity, object: target)
    return try render()
  }

  /// `show KEY` or `show KEYPATH`: the value and, for a path, the source of its first key.
  /// A path through an object names its properties (else an error with suggestions), and a
  /// password attribute is never shown.
  func show(_ keyPath: String) throws -> String {
    let path = KVCPath(keyPath)
    if path.components.count == 1 { return try context.showLine(forKeyNamed: keyPath) }
    let source = try context.source(forKeyNamed: path.first)
    var value = context.value(forKeyPath: path.first)
    var shown = [path.first]
    var entity: Entity?  // of the object(s) the path has reached, through to-many too
    for component in path.components.dropFirst() {
      let current = KVC.unwrap(value)
      if let object = current as? DatabaseObject { entity = object.entity }
      if let objects = current as? [DatabaseObject] { entity = objects.first?.entity ?? entity }
      guard let from = entity, current is DatabaseObject || current is [DatabaseObject] else {
        value = KVC.value(forKey: component, of: value)
        shown.append(component)
        entity = nil
        continue
      }
      let name = try propertyName(component, in: from)
      shown.append(name)
      if from.attribute(named: name)?.isPassword == true {
        return "\(shown.joined(separator: ".")) = (a password, never shown)  # \(source)"
      }
      value = KVC.value(forKey: name, of: value)
      entity = from.relationship(named: name).flatMap { try? database.model.entity(named: $0.destinationName) }
    }
    return "\(shown.joined(separator: ".")) = \(describe(value))  # \(source)"
  }

  func describe(_ value: Any?) -> String {
    guard let value = KVC.unwrap(value) else { return "nil" }
    if let object = value as? DatabaseObject { return object.displayDescription }
    if let objects = value as? [DatabaseObject] { return "(" + objects.map(\.displayDescription).joined(separator: ", ") + ")" }
    if let entity = value as? Entity { return Literal.quote(entity.name) }
    if let database = DatabaseValue(any: value) { return database.description }
    return String(describing: value)
  }

  func rules(all: Bool, key: String?) -> String {
    var lines: [String] = []
    for model in all ? context.engine.models : [context.engine.ruleModel] {
      for numbered in model.rules where key == nil || numbered.rule.key.name == key {
        lines.append(numbered.description)
      }
    }
    return lines.joined(separator: "\n")
  }

  func source(_ path: String) throws -> String {
    guard sourceDepth < REPLSession.maximumSourceDepth else {
      throw REPLError("source nests deeper than \(REPLSession.maximumSourceDepth) files")
    }
    let text: String
    do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
      throw REPLError("cannot read \(path): \((error as NSError).localizedDescription)")
    }
    sourceDepth += 1
    defer { sourceDepth -= 1 }
    var output: [String] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      do {
        try Interruption.check()  // Ctrl-C stops a long file between lines too
        let result = try run(String(line))
        if !result.isEmpty { output.append(result) }
      } catch let error as SourceError {
        throw error  // from a nested file: its own file and line say where
      } catch {
        throw SourceError(path: path, line: number + 1, underlying: error)
      }
    }
    return output.joined(separator: "\n")
  }
}
