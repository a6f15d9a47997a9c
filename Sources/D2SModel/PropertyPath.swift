import EnvKeys

/// A property key path (`inventory.film.title`) resolved once against an entity, so reading
/// it for each row of a page is array indexing and cached relationships, not string work.
public struct PropertyPath: Sendable, CustomStringConvertible {
  /// The to-one relationships to follow, by name.
  public let relationships: [String]
  /// The attribute at the end (nil when the path ends at a relationship).
  public let attribute: Attribute?
  let attributeIndex: Int?
  /// The key path as written.
  public let keyPath: String
  /// The name of the entity the path starts at.
  public let root: String?

  /// Resolves `keyPath` from `entity`; throws when a step is unknown or crosses a to-many.
  public init(_ keyPath: String, from entity: Entity, in model: Model) throws {
    let components = keyPath.split(separator: ".").map(String.init)
    // Every component but the last is a to-one relationship; the last is an attribute of
    // the entity reached, or a relationship (of either kind).
    let walk = KeyPathWalk(components.dropLast(), from: entity, in: model)
    switch walk.stop {
    case .end: break
    case .notARelationship:
      throw DatabaseError(
        .invalidValue,
        "\(walk.owner.name) has no property '\(walk.rest.first ?? "")' (in \(keyPath))")
    case .toMany(let step):
      throw DatabaseError(
        .unsupported, "\(keyPath) crosses the to-many relationship \(step.source.name).\(step.name)"
      )
    case .missingDestination(let name):
      throw DatabaseError(.invalidValue, "no entity \(name)")
    }
    var relationships = walk.steps.map(\.name)
    var attribute: Attribute?
    var index: Int?
    if let last = components.last {
      if let found = walk.owner.attribute(named: last) {
        attribute = found
        index = walk.owner.attributeIndex(named: last)
      } else {
        let end = KeyPathWalk([last], from: walk.owner, in: model, toMany: true)
        switch end.stop {
        case .end: relationships.append(last)
        case .missingDestination(let name):
          throw DatabaseError(.invalidValue, "no entity \(name)")
        case .notARelationship, .toMany:
          throw DatabaseError(
            .invalidValue, "\(walk.owner.name) has no property '\(last)' (in \(keyPath))")
        }
      }
    }
    self.relationships = relationships
    self.attribute = attribute
    self.attributeIndex = index
    self.keyPath = keyPath
    self.root = entity.name
  }

  /// The value at the end of the path for `object` (nil when a relationship on the way is
  /// empty). Relationships not prefetched are fetched.
  public func value(in object: DatabaseObject) -> DatabaseValue? {
    var current = object
    for name in relationships {
      guard let next = (try? current.related(name)) ?? nil else { return nil }
      current = next
    }
    guard let attributeIndex else { return nil }
    return current.databaseValue(at: attributeIndex)
  }

  /// The value as key-value coding gives it: an attribute's plain value, or the object(s) a
  /// path ending at a relationship leads to.
  public func anyValue(in object: DatabaseObject) -> Any? {
    guard attributeIndex == nil, let last = relationships.last else {
      return value(in: object)?.anyValue
    }
    var current = object
    for name in relationships.dropLast() {
      guard let next = (try? current.related(name)) ?? nil else { return nil }
      current = next
    }
    return current.value(forKey: last)
  }

  /// The entity whose attribute the path ends at: the last relationship's destination, or
  /// `root` (nil when the model lacks a step).
  public func owner(in model: Model, from root: Entity? = nil) -> Entity? {
    guard let start = root ?? self.root.flatMap({ model.entity(named: $0) }) else { return nil }
    let walk = KeyPathWalk(relationships, from: start, in: model, toMany: true)
    return walk.rest.isEmpty ? walk.owner : nil
  }

  public var description: String { keyPath }
}
