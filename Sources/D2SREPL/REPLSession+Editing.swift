import Components
import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// Editing: edit, new, property changes, choose, save, revert, delete, and who is logged in.
extension REPLSession {
  /// `edit ENTITY KEY`.
  func edit(_ entityName: String, _ key: [Literal]) throws -> String {
    try leaveEditing()
    let object = try fetch(entityName, key)
    var probe = context
    probe.auxiliaryQualifier = nil
    let session = try EditingSession.edit(object, in: probe, formatters: formatters)
    try navigate(task: "edit", entity: object.entity, object: object)
    editing = session
    return try render()
  }

  /// `new ENTITY`.
  func newObject(_ entityName: String) throws -> String {
    try leaveEditing()
    let session = try EditingSession.new(
      try entity(entityName).name, in: context, formatters: formatters)
    try navigate(task: "edit", entity: session.object.entity, object: session.object)
    editing = session
    return try render()
  }

  /// `object.KEY = VALUE`.
  func setObject(_ key: String, _ value: Literal) throws -> String {
    guard let editing else {
      throw REPLError("not editing: use `edit ENTITY KEY` or `new ENTITY` first")
    }
    let name = try propertyName(key, in: editing.object.entity)
    try editing.set(name, to: DatabaseValue(literal: value, for: name))
    return ""
  }

  /// `choose RELATIONSHIP [where QUALIFIER]`: the select page for a to-one of the edited object.
  func choose(_ relationship: String, _ qualifier: Qualifier?) throws -> String {
    guard let editing else { throw REPLError("not editing: use `edit ENTITY KEY` first") }
    let name = try propertyName(relationship, in: editing.object.entity)
    var child = context
    child.task = "select"
    child.relationship = editing.object.entity.relationship(named: name)
    guard let chosen = child.relationship, !chosen.isToMany,
      let destination = try database.model.entity(named: chosen.destinationName)
    else {
      throw REPLError("\(name) is not a to-one relationship")
    }
    let list = ListRequest(
      qualifier: try qualifier.map { try matchedQualifier($0, from: destination) },
      limit: defaultLimit)
    renderedPage = true
    var application = application
    application.base = child
    // Returned as text, which is printed escaped: no ANSI styles here.
    return String(try application.render(PageRequest(list: list, width: width)).dropLast())
  }

  /// `save`.
  func save() throws -> String {
    guard let editing else { throw REPLError("not editing: nothing to save") }
    // Nothing changed: nothing is written, and nothing is said to be saved.
    if !editing.object.isNew, editing.object.changedKeys.isEmpty { return "nothing to save" }
    // The values the columns require, named before the database would refuse them unnamed.
    let missing = editing.missingValues()
    if !missing.isEmpty {
      throw REPLError(
        "not saved: \(missing.joined(separator: ", ")) \(missing.count == 1 ? "needs" : "need") a value"
      )
    }
    do {
      try editing.save()
    } catch let failure as DatabaseError {
      let reason: String? =
        switch failure.code {
        case .notNull: "a value is required"
        case .unique: "another row already has this value"
        case .check: "the database does not accept this value"
        case .foreignKey: "a row it refers to does not exist"
        default: nil
        }
      guard let reason else { throw failure }
      throw REPLError("not saved: \(reason) (\(failure.message))")
    }
    let saved = "saved \(editing.object.entity.name) \(editing.object.primaryKeyDescription)"
    // Saved: a page that cannot be shown now does not make the save a failure.
    do {
      try navigate(task: "edit", entity: editing.object.entity, object: editing.object)
      try context.database?.throwFailedRead()
    } catch {
      return saved + " (the page cannot be shown now: \(REPLError.describe(error)))"
    }
    return saved
  }

  /// `revert`.
  func revert() throws -> String {
    guard let editing else { throw REPLError("not editing: nothing to revert") }
    editing.revert()
    return "reverted \(editing.object.entity.name) \(editing.object.primaryKeyDescription)"
  }

  /// `delete ENTITY KEY`, after asking at a terminal.
  func delete(_ entityName: String, _ key: [Literal]) throws -> String {
    let object = try fetch(entityName, key)
    func isThisRow(_ other: DatabaseObject?) -> Bool {
      other.map {
        $0.entity.name == object.entity.name && !$0.isNew
          && $0.primaryKeyValues == object.primaryKeyValues
      } ?? false
    }
    // Save or revert first.
    if isThisRow(editing?.object), editing?.object.hasChanges == true { try leaveEditing() }
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
  }

  /// `login USER PASSWORD`.
  func login(_ user: String, _ password: String) throws -> String {
    let found = try Login.authenticate(login: user, password: password, in: context)
    context.user = found
    return "logged in as \(found.displayDescription)"
  }

  /// `logout`.
  func logout() -> String {
    context.removeValue(for: D2SKeys.User.self)
    return "logged out"
  }

  /// Leaving an object with unsaved changes is an error until `save` or `revert`.
  func leaveEditing() throws {
    if let editing, editing.object.hasChanges {
      throw REPLError(
        "\(editing.object.entity.name) \(editing.object.isNew ? "(new)" : editing.object.primaryKeyDescription) has unsaved changes: save or revert first"
      )
    }
    editing = nil
  }
}

/// Many-to-many links: `link` and `unlink`.
extension REPLSession {
  /// `link ENTITY KEY RELATIONSHIP KEY` and `unlink …`: one link row added or removed, in
  /// one transaction, if the rules let the user edit the object and the link entity.
  func link(
    _ entityName: String, _ key: [Literal], _ relationshipName: String,
    _ destinationKey: [Literal], remove: Bool
  ) throws -> String {
    let object = try fetch(entityName, key)
    let name = try propertyName(relationshipName, in: object.entity)
    guard let relationship = object.entity.relationship(named: name), relationship.isFlattened
    else {
      let linkTable = object.entity.relationship(named: name).map {
        $0.isToMany ? " (its rows are edited as rows: `edit`, `new`, `delete`)" : ""
      }
      throw REPLError(
        "\(name) of \(object.entity.name) is not a many-to-many through a link table\(linkTable ?? "")"
      )
    }
    let destination = try fetch(relationship.destinationName, destinationKey)
    let key = destination.primaryKeyValues
    var probe = context
    probe.auxiliaryQualifier = nil
    try EditingSession.changeLinks(
      name, of: object, remove ? .remove(key) : .add(key), in: probe)
    return
      "\(remove ? "unlinked" : "linked") \(destination.entity.name) \(destination.primaryKeyDescription) \(remove ? "from" : "to") \(object.entity.name) \(object.primaryKeyDescription) (\(name))"
  }
}
