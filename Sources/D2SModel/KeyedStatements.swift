import EnvKeys
import Qualifiers
import Synchronization

/// Statements selecting an entity's objects by the values of some of its attributes (an object
/// by its primary key, a to-one's destination by its join), kept by entity and attributes:
/// their SQL is the same for every object, only the values bound differ. An inspect page
/// fetches its object and its to-ones' destinations so; made anew, each statement cost the
/// builder and serializer about 50,000 instructions.
///
/// A statement is kept only when the values it binds are, in order, the ones the caller
/// computes for its own values (``Database/keyBindings(_:_:_:)``), so that another object's
/// values can be put in their places; and only once its entity's catalog was read whole (the
/// model does not change after that for its database).
final class KeyedStatements: Sendable {
  /// At most this many statements are kept; past it, all are let go.
  static let capacity = 1_024

  private let entries = Mutex<[String: SQLStatement]>([:])

  /// The statement kept for `key`, if any.
  func statement(for key: String) -> SQLStatement? {
    entries.withLock { $0[key] }
  }

  /// Keeps `statement` for `key`.
  func keep(_ statement: SQLStatement, for key: String) {
    entries.withLock { entries in
      if entries.count >= Self.capacity { entries.removeAll() }
      entries[key] = statement
    }
  }

  /// How many statements are kept.
  var count: Int { entries.withLock { $0.count } }
}

extension Database {
  /// The objects of `entity` whose attributes `names` equal `values`, through a statement kept
  /// for `entity` and `names` when the values are none of them NULL (see ``KeyedStatements``).
  func fetch(_ entity: Entity, where names: [String], equal values: [DatabaseValue]) throws
    -> [DatabaseObject]
  {
    let specification = FetchSpecification(
      entityName: entity.name, qualifier: try qualifier(names, values, in: entity))
    guard let bindings = keyBindings(entity, names, values) else {
      return try fetch(specification)
    }
    let key = ([entity.name] + names).joined(separator: "\u{1}")
    var statement: SQLStatement
    if let kept = keyedStatements.statement(for: key) {
      statement = kept
      statement.bindings = bindings
    } else {
      var builder = builder(for: entity)
      statement = try builder.select(specification)
      if statement.bindings == bindings, entity.hasDetails {
        keyedStatements.keep(statement, for: key)
      }
    }
    var objects: [DatabaseObject] = []
    try adaptor.query(statement, columns: entity.attributes) { row in
      try Interruption.check()
      objects.append(DatabaseObject(entity: entity, database: self, values: row))
    }
    return objects
  }

  /// The statement counting the to-many relationships `names` of `object` (``countToManys(_:of:)``),
  /// kept by its entity and `names` when ``toManyBindings(_:of:)`` can say what it binds,
  /// else made by `make`.
  func keptStatement(
    counting names: [String], of object: DatabaseObject, make: () throws -> SQLStatement
  ) throws -> SQLStatement {
    guard let bindings = toManyBindings(names, of: object) else { return try make() }
    // Apart from the fetches' keys, which start with an entity's name.
    let key = "\u{2}" + ([object.entity.name] + names).joined(separator: "\u{1}")
    if var kept = keyedStatements.statement(for: key) {
      kept.bindings = bindings
      return kept
    }
    let made = try make()
    if made.bindings == bindings, object.entity.hasDetails {
      keyedStatements.keep(made, for: key)
    }
    return made
  }

  /// What the statement counting the to-many relationships `names` of `object` binds, in
  /// order: each relationship's qualifier (``qualifier(for:of:)``) compares an attribute with
  /// one of the object's values, the object's own primary key across a flattened
  /// relationship's inverse, else the destination's join attribute with the source's value.
  /// Nil when one of them is NULL (the qualifier is then false and binds nothing) or cannot be
  /// coerced, or a name is no to-many.
  func toManyBindings(_ names: [String], of object: DatabaseObject) -> [DatabaseValue]? {
    var bindings: [DatabaseValue] = []
    for name in names {
      guard let relationship = object.entity.relationship(named: name), relationship.isToMany,
        let destination = try? entity(relationship.destinationName)
      else { return nil }
      let pairs: [(String, Entity, String)] =
        relationship.isFlattened && relationship.inverseName != nil
        ? object.entity.primaryKeyAttributeNames.map { ($0, object.entity, $0) }
        : relationship.joins.map { ($0.source, destination, $0.destination) }
      for (source, compared, name) in pairs {
        guard let attribute = compared.attribute(named: name),
          let value = object.databaseValue(forAttribute: source),
          let coerced = try? DatabaseValue.coerce(value, to: attribute), !coerced.isNull
        else { return nil }
        bindings.append(adaptor.encode(coerced, for: attribute))
      }
    }
    return bindings
  }

  /// What the builder binds for `names` equal to `values` (each value coerced to its
  /// attribute, then encoded for the adaptor), in order; nil when an attribute is unknown, a
  /// value cannot be coerced, or one is NULL (then the statement says `IS NULL` and binds
  /// nothing).
  func keyBindings(_ entity: Entity, _ names: [String], _ values: [DatabaseValue])
    -> [DatabaseValue]?
  {
    guard names.count == values.count else { return nil }
    var bindings: [DatabaseValue] = []
    bindings.reserveCapacity(values.count)
    for (name, value) in zip(names, values) {
      guard let attribute = entity.attribute(named: name),
        let coerced = try? DatabaseValue.coerce(value, to: attribute), !coerced.isNull
      else { return nil }
      bindings.append(adaptor.encode(coerced, for: attribute))
    }
    return bindings
  }
}
