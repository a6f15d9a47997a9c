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
    let editing = try EditingSession.edit(object, in: writeContext(for: object, task: "edit"))
    let writes = try mayWrite(editing.context, "edit")
    let seen = try arguments.object("seen") ?? [:]
    try requireSeen(seen, in: object)
    try set(values, on: editing)
    guard writes else {
      editing.revert()
      return try propose(.edit, entity, key: try arguments.key(), values, seen: seen)
    }
    try editing.save()
    return try page(PageRequest(task: "inspect", entityName: entity.name, object: editing.object))
  }

  /// `new`: a new row with `values`.
  func new(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    var base = context
    base.task = "edit"
    let editing = try EditingSession.new(entity.name, in: base)
    let writes = try mayWrite(editing.context, "new")
    let values = try arguments.object("values") ?? [:]
    try set(values, on: editing)
    guard writes else { return try propose(.new, entity, key: nil, values, seen: [:]) }
    try editing.save()
    return try page(PageRequest(task: "inspect", entityName: entity.name, object: editing.object))
  }

  /// `delete`: deletes the row, when it still holds `seen`.
  func delete(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    let object = try self.object(of: entity, arguments.key())
    let context = writeContext(for: object, task: "inspect")
    let writes = try mayWrite(context, "delete")
    let seen = try arguments.object("seen") ?? [:]
    try requireSeen(seen, in: object)
    guard writes else {
      guard context.isObjectDeletable else {
        throw ToolError(
          "not allowed: \(entity.name) \(object.primaryKeyDescription) may not be deleted")
      }
      return try propose(.delete, entity, key: try arguments.key(), [:], seen: seen)
    }
    try EditingSession.delete(object, in: context)
    return JSONText.object([
      ("deleted", JSONText.string(entity.name)),
      ("key", JSONText.array(object.primaryKeyValues.map(JSONText.value))),
    ])
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
  func requireSeen(_ seen: [String: Any], in object: DatabaseObject) throws {
    for (name, value) in seen.sorted(by: { $0.key < $1.key }) {
      let key = try names.property(name, of: object.entity)
      guard let attribute = object.entity.attribute(named: key), !attribute.isPassword else {
        throw ToolError("seen: \(name) is not a column of \(object.entity.name)")
      }
      let stored = object.databaseValue(forAttribute: key) ?? .null
      let storedJSON = Self.canonical(JSONText.value(stored))
      let seenJSON = Self.canonical(JSONRPC.text(value))
      // The text a page showed is accepted too, for a value the agent read as text.
      let storedText = JSONText.string(stored.isNull ? "" : stored.storedText())
      guard storedJSON == seenJSON || storedText == seenJSON else {
        throw DatabaseError(
          .conflict,
          "\(key) of \(object.entity.name) \(object.primaryKeyDescription) is now \(storedJSON), not \(seenJSON) as seen: nothing was changed"
        )
      }
    }
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
    let editable = Set(editing.context.displayPropertyKeys)
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      let key = try names.property(name, of: entity)
      let attribute = entity.attribute(named: key)
      guard editable.contains(key) || entity.primaryKeyAttributeNames.contains(key),
        attribute.map({ !$0.isPassword && !$0.isGenerated && $0.valueType != .data }) ?? true,
        entity.relationship(named: key).map({ !$0.isToMany }) ?? true
      else { throw ToolError("\(name) cannot be set here") }
      do {
        try editing.set(key, to: try Self.databaseValue(value))
      } catch {
        throw ToolError("\(name): \(Self.message(error))")
      }
    }
  }

  /// A JSON value as a database value: text, an integer, a double, a Boolean or NULL.
  static func databaseValue(_ value: Any) throws -> DatabaseValue {
    switch value {
    case is NSNull: return .null
    case let text as String: return .string(text)
    case let number as NSNumber:
      if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
      if let integer = Int(exactly: number.doubleValue), !"\(number)".contains(".") {
        return .int(integer)
      }
      // Exact as written: the decimal text the client sent.
      return .string("\(number)")
    default: throw ToolError("a value is text, a number, a Boolean or null")
    }
  }
}
