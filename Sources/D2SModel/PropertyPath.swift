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
    var current = entity
    var relationships: [String] = []
    let components = keyPath.split(separator: ".").map(String.init)
    var attribute: Attribute?
    var index: Int?
    for (position, component) in components.enumerated() {
      let isLast = position == components.count - 1
      if isLast, let found = current.attribute(named: component) {
        attribute = found
        index = current.attributeIndex(named: component)
        break
      }
      guard let relationship = current.relationship(named: component) else {
        throw DatabaseError(
          .invalidValue, "\(current.name) has no property '\(component)' (in \(keyPath))")
      }
      guard !relationship.isToMany || isLast else {
        throw DatabaseError(
          .unsupported, "\(keyPath) crosses the to-many relationship \(current.name).\(component)")
      }
      relationships.append(component)
      guard let destination = model.entity(named: relationship.destinationName) else {
        throw DatabaseError(.invalidValue, "no entity \(relationship.destinationName)")
      }
      current = destination
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
    var current = root ?? self.root.flatMap { model.entity(named: $0) }
    for name in relationships {
      guard let relationship = current?.relationship(named: name) else { return nil }
      current = model.entity(named: relationship.destinationName)
    }
    return current
  }

  public var description: String { keyPath }
}
