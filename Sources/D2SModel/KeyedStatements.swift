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
/// computes for its own values (coerced to their attributes, encoded), so that another object's
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

  /// The statement kept for `key` with `bindings` in its first statement's places, or the one
  /// `make` makes, kept when it binds exactly `bindings` (so that the next caller's can take
  /// their places) and `keeps` says the model is read whole.
  func statement(
    for key: String, binding bindings: [DatabaseValue], keeps: Bool,
    make: () throws -> SQLStatement
  ) rethrows -> SQLStatement {
    if var kept = statement(for: key) {
      kept.bindings = bindings
      return kept
    }
    let made = try make()
    if keeps, made.bindings == bindings { keep(made, for: key) }
    return made
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
    func specification() throws -> FetchSpecification {
      FetchSpecification(
        entityName: entity.name, qualifier: try qualifier(names, values, in: entity))
    }
    let bindings = zip(names, values).compactMap { name, value in
      binding(value, for: entity.attribute(named: name))
    }
    guard names.count == values.count, bindings.count == values.count else {
      return try fetch(specification())
    }
    let statement = try keyedStatements.statement(
      for: ([entity.name] + names).joined(separator: "\u{1}"), binding: bindings,
      keeps: entity.hasDetails,
      make: {
        var builder = builder(for: entity)
        return try builder.select(specification())
      })
    return try objects(of: entity, from: statement)
  }

  /// The statement counting the to-many relationships `names` of `object` (``countToManys(_:of:)``),
  /// kept by its entity and `names` when ``toManyBindings(_:of:)`` can say what it binds,
  /// else made by `make`.
  func keptStatement(
    counting names: [String], of object: DatabaseObject, make: () throws -> SQLStatement
  ) throws -> SQLStatement {
    guard let bindings = toManyBindings(names, of: object) else { return try make() }
    // Apart from the fetches' keys, which start with an entity's name.
    return try keyedStatements.statement(
      for: "\u{2}" + ([object.entity.name] + names).joined(separator: "\u{1}"),
      binding: bindings, keeps: object.entity.hasDetails, make: make)
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
        guard
          let bound = binding(
            object.databaseValue(forAttribute: source), for: compared.attribute(named: name))
        else { return nil }
        bindings.append(bound)
      }
    }
    return bindings
  }

  /// What the builder binds for an equality of `attribute` with `value`: the value coerced to
  /// the attribute, then encoded for the adaptor; nil when the attribute is unknown, the value
  /// missing, NULL (the statement then says `IS NULL` and binds nothing) or not coercible.
  private func binding(_ value: DatabaseValue?, for attribute: Attribute?) -> DatabaseValue? {
    guard let attribute, let value, let coerced = try? DatabaseValue.coerce(value, to: attribute),
      !coerced.isNull
    else { return nil }
    return adaptor.encode(coerced, for: attribute)
  }
}
