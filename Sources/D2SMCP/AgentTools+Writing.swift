import Components
import D2SApplication
import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// The writing tools: edit, new, delete. An agent's change goes through the writing API a
/// person's does (the rules' permissions, the optimistic lock); `seen` (the values the agent
/// read) is its lock: a column that no longer holds them is a conflict that names it.
/// `agentWrites` decides what a permitted change does: `write` saves it, `propose` (the
/// default) makes it a proposal a person approves, `none` refuses it.
extension AgentTools {
  /// `edit`: sets `values` on the row, when it still holds `seen`.
  func edit(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    let object = try self.object(of: entity, arguments.key())
    let values = try arguments.object("values") ?? [:]
    guard !values.isEmpty else { throw ToolError("edit needs values: the properties to set") }
    let editing = try EditingSession.edit(
      object, in: writeContext(for: object, task: "edit"), formatters: pages.formatters)
    let writes = try mayWrite(editing.context, "edit")
    let seen = try arguments.object("seen") ?? [:]
    let seenKeys = try requireSeen(seen, in: object)
    try set(values, on: editing)
    guard writes else {
      editing.revert()
      // A proposal always carries a lock: what the agent saw, else the changed columns as
      // stored now.
      let lock = seen.isEmpty ? try storedLock(object, keys: Array(values.keys)) : seen
      return try propose(.edit, entity, key: try arguments.key(), values, seen: lock)
    }
    // What the agent saw is locked in the save itself: a seen column changed after this call
    // read the row is a conflict too.
    try editing.save(locking: seenKeys)
    return savedPage(editing.object)
  }

  /// The page of `object` just saved; when it cannot be made now (a lock, the statement
  /// timeout), that it was saved, with its key and the reason, never a failure an agent would
  /// retry into a second row.
  func savedPage(_ object: DatabaseObject) -> String {
    do {
      let page = try page(
        PageRequest(task: "inspect", entityName: object.entity.name, object: object))
      try context.database?.throwFailedRead()
      return page
    } catch {
      return JSONText.object([
        ("saved", "true"), ("entity", JSONText.string(object.entity.name)),
        ("key", JSONText.array(object.primaryKeyValues.map(JSONText.value))),
        (
          "shown",
          JSONText.string("the row is saved; its page cannot be made now: " + Self.message(error))
        ),
      ])
    }
  }

  /// `new`: a new row with `values`.
  func new(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    var base = context
    base.task = "edit"
    let editing = try EditingSession.new(entity.name, in: base, formatters: pages.formatters)
    let writes = try mayWrite(editing.context, "new")
    let values = try arguments.object("values") ?? [:]
    try set(values, on: editing)
    let missing = editing.missingValues()
    guard missing.isEmpty else {
      throw ToolError(
        "not saved: \(missing.joined(separator: ", ")) \(missing.count == 1 ? "needs" : "need") a value"
      )
    }
    guard writes else { return try propose(.new, entity, key: nil, values, seen: [:]) }
    try editing.save()
    return savedPage(editing.object)
  }

  /// `delete`: deletes the row, when it still holds `seen`.
  func delete(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    let object = try self.object(of: entity, arguments.key())
    let context = writeContext(for: object, task: "inspect")
    let writes = try mayWrite(context, "delete")
    let seen = try arguments.object("seen") ?? [:]
    try requireSeen(seen, in: object)
    try refuseHiddenChanges(deleting: object)
    guard writes else {
      guard context.isObjectDeletable else {
        throw ToolError(
          "not allowed: \(entity.name) \(object.primaryKeyDescription) may not be deleted")
      }
      // The lock: what the agent saw, else every column the row's page shows, as stored now.
      var inspect = context
      inspect.task = "inspect"
      let lock = seen.isEmpty ? try storedLock(object, keys: inspect.displayPropertyKeys) : seen
      return try propose(.delete, entity, key: try arguments.key(), [:], seen: lock)
    }
    try EditingSession.delete(object, in: context)
    return JSONText.object([
      ("deleted", JSONText.string(entity.name)),
      ("key", JSONText.array(object.primaryKeyValues.map(JSONText.value))),
    ])
  }

  /// Throws when deleting `object` would delete or change rows of an entity the user may not
  /// reach (a cascade, SET NULL or SET DEFAULT into it, however deep), as the web's delete
  /// page refuses.
  func refuseHiddenChanges(deleting object: DatabaseObject) throws {
    guard let database = context.database else { return }
    let context = self.context
    if try database.deleteChangesRows(of: object, hidden: { !context.isEntityReachable($0) }) {
      throw ToolError("not allowed: deleting it would change rows you cannot see")
    }
  }

  /// The context of a change of `object`.
  func writeContext(for object: DatabaseObject, task: String) -> RuleContext {
    var context = self.context
    context.task = task
    context.entity = object.entity
    context.object = object
    return context
  }

  /// Whether the agent makes the change itself (`agentWrites = 'write'`) or proposes it
  /// (`propose`, where a person can approve it); throws when it may do neither.
  func mayWrite(_ context: RuleContext, _ verb: String) throws -> Bool {
    switch context.agentWrites {
    case "write": return true
    case "none":
      throw ToolError("not allowed: agents may not \(verb) \(context.entity?.name ?? "rows")")
    case _ where desk != nil: return false
    default:
      throw ToolError(
        "this \(verb) would be a proposal for a person to approve (agentWrites = 'propose', the default for agents), and this server has no approval page: a rule such as `client = 'mcp' AND entity.name = '\(context.entity?.name ?? "Film")' => agentWrites = 'write'` lets agents save"
      )
    }
  }

  /// The stored values of `keys` (the columns among them, never a password or a blob), as
  /// JSON values: a proposal's lock when the agent gave none.
  func storedLock(_ object: DatabaseObject, keys: [String]) throws -> [String: Any] {
    var lock: [String: Any] = [:]
    for name in keys {
      guard let key = try? names.property(name, of: object.entity),
        let attribute = object.entity.attribute(named: key), !attribute.isPassword,
        attribute.valueType != .data
      else { continue }
      let json = JSONText.value(object.databaseValue(forAttribute: key) ?? .null)
      lock[key] =
        (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]))
        ?? NSNull()
    }
    return lock
  }

  /// Hands the change to the desk; the answer names the address where a person approves it.
  func propose(
    _ kind: Proposal.Kind, _ entity: Entity, key: [String]?, _ values: [String: Any],
    seen: [String: Any]
  ) throws -> String {
    guard let desk else { throw ToolError("no person can approve proposals here") }
    func texts(_ values: [String: Any]) -> [(String, String)] {
      values.sorted { $0.key < $1.key }.map { ($0.key, JSONRPC.text($0.value)) }
    }
    let address = try desk.propose(
      Proposal(
        kind: kind, entity: entity.name, key: key, values: texts(values), seen: texts(seen),
        proposer: proposer))
    return JSONText.object([
      ("proposal", JSONText.string(address)), ("status", JSONText.string("proposed")),
      ("kind", JSONText.string(kind.rawValue)), ("entity", JSONText.string(entity.name)),
      (
        "message",
        JSONText.string(
          "a person approves or rejects this \(kind.rawValue) at the proposal's address; nothing is changed until then"
        )
      ),
    ])
  }

  /// Throws a conflict naming the first column of `seen` whose stored value differs.
  @discardableResult
  func requireSeen(_ seen: [String: Any], in object: DatabaseObject) throws -> [String] {
    var compared: [String] = []
    for (name, value) in seen.sorted(by: { $0.key < $1.key }) {
      let key = try names.property(name, of: object.entity)
      guard let attribute = object.entity.attribute(named: key), !attribute.isPassword else {
        throw ToolError("seen: \(name) is not a column of \(object.entity.name)")
      }
      let stored = object.databaseValue(forAttribute: key) ?? .null
      let storedJSON = Self.canonical(JSONText.value(stored))
      let seenJSON = Self.canonical(JSONRPC.text(value))
      // The text a page showed is accepted too, for a value the agent read as text; NULL
      // only as null (its empty text is another value).
      let storedText = stored.isNull ? nil : JSONText.string(stored.storedText())
      guard storedJSON == seenJSON || storedText == seenJSON else {
        throw DatabaseError(
          .conflict,
          "\(key) of \(object.entity.name) \(object.primaryKeyDescription) is now \(storedJSON), not \(seenJSON) as seen: nothing was changed"
        )
      }
      compared.append(key)
    }
    return compared
  }

  /// A JSON value's text as JSONSerialization writes it (`20.99`, `"a"`), so that two
  /// writings of one value compare equal.
  static func canonical(_ text: String) -> String {
    guard
      let value = try? JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
    else { return text }
    return JSONRPC.text(value)
  }

  /// Sets `values` (property names as the pages show them) on `editing`: text through the
  /// property's formatter, numbers and Booleans as they are, null as NULL, a to-one by its
  /// destination's key. Only properties the edit page shows can be set.
  func set(_ values: [String: Any], on editing: EditingSession) throws {
    let entity = editing.object.entity
    let writable = try writableKeys(editing)
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      let key = try names.property(name, of: entity)
      guard writable.contains(key) else { throw ToolError("\(name) cannot be set here") }
      do {
        try editing.set(key, to: try Self.databaseValue(value))
      } catch {
        throw ToolError("\(name): \(Self.message(error))")
      }
    }
  }

  /// What the web's edit form of the same row has fields for: the properties its page shows
  /// with a component that edits, never a key (but a new row's key the database does not
  /// make), a rowid, a generated column, a blob, a password, another user's login name, or a
  /// foreign key into an entity the user may not reach (what saves would tell which of its
  /// rows exist).
  func writableKeys(_ editing: EditingSession) throws -> Set<String> {
    let object = editing.object
    let entity = object.entity
    var request = PageRequest(task: "edit", entityName: entity.name, object: object)
    request.user = user
    request.width = nil
    let fields = try pages.withPage(request) { $0.editFieldKeys }
    let hidden = Set(
      entity.relationships.filter { !$0.isToMany && !context.isEntityReachable($0.destinationName) }
        .flatMap { $0.joins.map(\.source) })
    let keys = Set(entity.primaryKeyAttributeNames)
    func writable(_ attribute: Attribute?, key: Bool = false) -> Bool {
      guard let attribute, !attribute.isPassword, !attribute.isGenerated, !attribute.isRowID,
        attribute.valueType != .data, !hidden.contains(attribute.name),
        !editing.isIdentityLocked(attribute.name)
      else { return false }
      return key || !keys.contains(attribute.name)
    }
    var result = Set(
      editing.context.displayPropertyKeys.filter { key in
        guard fields.contains(key) else { return false }
        if let relationship = entity.relationship(named: key) {
          return !relationship.isToMany && !relationship.isFlattened
            && context.isEntityReachable(relationship.destinationName)
            && relationship.joins.allSatisfy { writable(entity.attribute(named: $0.source)) }
        }
        return writable(entity.attribute(named: key))
      })
    if object.isNew {
      for attribute in entity.primaryKeyAttributes
      where !attribute.isAutoIncrement && writable(attribute, key: true) {
        result.insert(attribute.name)
      }
    }
    return result
  }

  /// A JSON value as a database value: text, an integer, a double, a Boolean or NULL.
  static func databaseValue(_ value: Any) throws -> DatabaseValue {
    switch value {
    case is NSNull: return .null
    case let text as String: return .string(text)
    case let number as NSNumber:
      if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
      // An integer as the client wrote it (a double would round past 2^53).
      if let integer = Int("\(number)") { return .int(integer) }
      // Exact as written: the decimal text the client sent.
      return .string("\(number)")
    default: throw ToolError("a value is text, a number, a Boolean or null")
    }
  }
}
