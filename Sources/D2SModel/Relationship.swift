import EnvKeys
import Qualifiers

/// A link between entities: a to-one from a foreign key, or its inverse to-many.
public final class Relationship: Sendable, Hashable, KeyValueCoding, QualifierComparable,
  CustomStringConvertible
{
  /// One pair of joined columns, by attribute name.
  public struct Join: Hashable, Sendable {
    /// The attribute of the entity that owns the relationship.
    public let source: String
    /// The attribute of the destination entity.
    public let destination: String
    public init(source: String, destination: String) {
      self.source = source
      self.destination = destination
    }
  }

  public let name: String
  /// The destination entity's name.
  public let destinationName: String
  /// The joins, in key order (several for a multi-column key).
  public let joins: [Join]
  public let isToMany: Bool
  /// A to-one whose source columns are all non-null.
  public let isMandatory: Bool

  public init(name: String, destinationName: String, joins: [Join], isToMany: Bool, isMandatory: Bool) {
    self.name = name
    self.destinationName = destinationName
    self.joins = joins
    self.isToMany = isToMany
    self.isMandatory = isMandatory
  }

  /// `toOne` or `toMany`.
  public var kind: String { isToMany ? "toMany" : "toOne" }

  public func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "destination", "destinationName": destinationName
    case "isToMany": isToMany
    case "kind": kind
    case "isMandatory": isMandatory
    default: nil
    }
  }

  public var qualifierComparisonValue: Any? { name }

  public static func == (a: Relationship, b: Relationship) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String { name }
}
