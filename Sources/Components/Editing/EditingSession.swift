import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// Editing one object (new or fetched): property changes coerced through the attribute's type
/// or formatter, and saves that honour the permission rules.
///
/// Permissions are evaluated where the change happens, from the rules for that object and
/// user: `edit` needs `isObjectEditable` (task `edit`), `new` needs `NOT isEntityReadOnly`, a
/// save needs `isObjectEditable` for both the fetched and the pending values (so renaming
/// STEVE does not unlock him), a delete needs `isObjectDeletable` (task `inspect`). Explicitly
/// set permission keys only narrow what the rules allow.
public final class EditingSession: @unchecked Sendable {
  /// The object edited.
  public let object: DatabaseObject
  /// The context of the edit page: task `edit`, the entity, the object.
  public let context: RuleContext
  let formatters: FormatterRegistry

  private init(object: DatabaseObject, context: RuleContext, formatters: FormatterRegistry) {
    self.object = object
    var context = context
    context.task = "edit"
    context.entity = object.entity
    context.object = object
    self.context = context
    self.formatters = formatters
  }

  /// Starts editing a fetched object; refused up front when it is not editable.
  public static func edit(
    _ object: DatabaseObject, in context: RuleContext,
    formatters: FormatterRegistry = FormatterRegistry()
  )
    throws -> EditingSession
  {
    let session = EditingSession(object: object, context: context, formatters: formatters)
    try object.database?.requireWritable(
      "\(object.entity.name) \(object.primaryKeyDescription) cannot be edited")
    try Permissions.require(
      D2SKeys.IsObjectEditable.self, for: object, in: session.context, action: "edited")
    return session
  }

  /// Starts editing a new object of `entity`; refused when the entity is read-only. Applies
  /// `initialPropertyValues`.
  public static func new(
    _ entityName: String, in context: RuleContext,
    formatters: FormatterRegistry = FormatterRegistry()
  )
    throws -> EditingSession
  {
    guard let database = context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    var probe = context
    probe.task = "edit"
    guard let entity = database.model.lookupEntity(entityName) else {
      throw DatabaseError(.invalidValue, "no entity named \(entityName)")
    }
    probe.entity = entity
    try database.requireWritable("no new \(entity.name) objects")
    if probe.isEntityReadOnly {
      throw PermissionError(message: "\(entity.name) is read-only: no new objects")
    }
    let object = try database.newObject(entity.name)
    let session = EditingSession(object: object, context: context, formatters: formatters)
    for (key, literal) in session.context.initialPropertyValues.sorted(by: { $0.key < $1.key }) {
      try session.set(key, to: DatabaseValue(literal: literal, for: key))
    }
    return session
  }

  /// Sets an attribute, or a to-one relationship by the destination's primary key (one value,
  /// or a list of them), to `value`: text is parsed by the property's formatter when it has
  /// one; a value the column can hold is stored as it is. On error nothing changes.
  public func set(_ key: String, to value: DatabaseValue) throws {
    let entity = object.entity
    if let attribute = entity.attribute(named: key) {
      let property = context.with(\.propertyKey, key)
      let typed: DatabaseValue
      if case .string(let text) = value, let name = property.formatter,
        let formatter = formatters.formatter(named: name.name)
      {
        typed = try formatter.parse(text, for: attribute)
      } else {
        typed = try DatabaseValue.coerce(value, to: attribute)
      }
      // A value the column cannot hold is refused here, by its field, not cut short later.
      if let adaptor = context.database?.adaptor,
        let reason = adaptor.refusal(of: adaptor.encode(typed, for: attribute), for: attribute)
      {
        throw DatabaseError(.invalidValue, reason)
      }
      try object.setValue(typed, forAttribute: key)
      return
    }
    guard let relationship = entity.relationship(named: key), !relationship.isToMany else {
      throw DatabaseError(
        .invalidValue, "\(entity.name) has no attribute or to-one relationship '\(key)'")
    }
    guard let database = context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    if case .null = value {
      try object.setRelated(nil, forRelationship: key)
      return
    }
    let keys: [DatabaseValue] = if case .list(let items) = value { items } else { [value] }
    guard let destinationEntity = database.model.entity(named: relationship.destinationName) else {
      return
    }
    let values = try zip(destinationEntity.primaryKeyAttributes, keys).map {
      try DatabaseValue.coerce($1, to: $0)
    }
    guard let destination = try database.fetchObject(destinationEntity.name, primaryKey: values)
    else {
      throw DatabaseError(
        .notFound,
        "no \(destinationEntity.name) with id \(keys.map(\.description).joined(separator: ","))")
    }
    try object.setRelated(destination, forRelationship: key)
  }

  /// The labels of the columns the row needs a value for and has none
  /// (``Attribute/requiresValue``), named before the database refuses them unnamed (or,
  /// SQLite's key that is no rowid, takes a NULL).
  public func missingValues() -> [String] {
    object.entity.attributes.filter { attribute in
      attribute.requiresValue
        && (object.databaseValue(forAttribute: attribute.name) ?? .null).isNull
    }.map { context.with(\.propertyKey, $0.name).displayNameForProperty }
  }

  /// Saves the pending changes if the rules allow it for the fetched and the pending values;
  /// the attributes `locking` names must still hold their fetched values too.
  public func save(locking: [String] = []) throws {
    guard let database = context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    if !object.isNew {
      try Permissions.require(
        D2SKeys.IsObjectEditable.self, for: object.fetchedCopy(), in: context, action: "saved")
    }
    try Permissions.require(
      D2SKeys.IsObjectEditable.self, for: object, in: context, action: "saved")
    try LoginIdentity.check(object, in: context, database: database)
    try database.save(
      object,
      options: .init(
        creationTimestampKey: context.creationTimestampPropertyKey,
        updateTimestampKey: context.updateTimestampPropertyKey, lockedAttributes: locking))
  }

  /// Whether `key` may not be changed by this session's user whatever the rules say: another
  /// user's login name (``save()`` refuses a change of it).
  public func isIdentityLocked(_ key: String) -> Bool {
    LoginIdentity.isLocked(key, of: object, in: context)
  }

  /// Drops pending changes.
  public func revert() { object.revert() }

  /// Deletes a fetched object if `isObjectDeletable` allows it (task `inspect`).
  public static func delete(_ object: DatabaseObject, in context: RuleContext) throws {
    try object.database?.requireWritable(
      "\(object.entity.name) \(object.primaryKeyDescription) cannot be deleted")
    var probe = context
    probe.task = "inspect"
    probe.entity = object.entity
    try Permissions.require(
      D2SKeys.IsObjectDeletable.self, for: object.fetchedCopy(), in: probe, action: "deleted")
    guard let database = context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    try database.delete(object)
  }
}

/// An action the rules do not allow.
public struct PermissionError: Error, Sendable, CustomStringConvertible {
  /// What was not allowed.
  public var message: String
  /// The message.
  public var description: String { message }
}

enum Permissions {
  /// Throws unless `key` is true for `object`: by the rules (an explicit value of the key
  /// is ignored for that), and by the explicit value, if any.
  static func require<K: DynamicEnvironmentKey>(
    _ key: K.Type, for object: DatabaseObject, in context: RuleContext, action: String
  ) throws where K.Value == Bool {
    var probe = context
    probe.object = object
    probe.entity = object.entity
    let explicit = probe.values.explicitValue(for: key)
    probe.removeValue(for: key)
    let byRules = try probe.resolve(key)
    guard byRules, explicit ?? true else {
      let name = probe.engine.registry.key(for: key)?.name ?? "permission"
      let reason =
        explicit == false
        ? "\(name) is set to false"
        : ((try? probe.showLine(forKeyNamed: name)) ?? "\(name) is false")
      throw PermissionError(
        message:
          "\(object.entity.name) \(object.primaryKeyDescription) may not be \(action) (\(reason))")
    }
  }
}
