import EnvKeys
import Qualifiers

/// A link between entities: a to-one from a foreign key, its inverse to-many, or a
/// many-to-many flattened through a pure link table (`Film.actors` is `filmActors.actor`).
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

  /// The name in key paths (`address`, `customers`, `actors`).
  public let name: String
  /// The destination entity's name.
  public let destinationName: String
  /// The joins, in key order (several for a multi-column key); empty for a flattened one.
  public let joins: [Join]
  /// A to-many (an inverse of a to-one, or flattened through a link table).
  public let isToMany: Bool
  /// A to-one whose source columns are all non-null.
  public let isMandatory: Bool
  /// For a flattened many-to-many: the relationships it follows, the link table's to-many
  /// then its to-one (`["filmActors", "actor"]`); empty otherwise.
  public let definition: [String]
  /// For a flattened many-to-many: the flattened relationship of the other end that leads
  /// back (`Actor.films` for `Film.actors`).
  public let inverseName: String?

  /// A relationship; `definition` and `inverseName` only for a flattened many-to-many.
  public init(
    name: String, destinationName: String, joins: [Join], isToMany: Bool, isMandatory: Bool,
    definition: [String] = [], inverseName: String? = nil
  ) {
    self.name = name
    self.destinationName = destinationName
    self.joins = joins
    self.isToMany = isToMany
    self.isMandatory = isMandatory
    self.definition = definition
    self.inverseName = inverseName
  }

  /// A many-to-many flattened through a link table.
  public var isFlattened: Bool { !definition.isEmpty }

  /// `toOne` or `toMany`.
  public var kind: String { isToMany ? "toMany" : "toOne" }

  public func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "destination", "destinationName": destinationName
    case "isToMany": isToMany
    case "kind": kind
    case "isMandatory": isMandatory
    case "isFlattened": isFlattened
    case "definition": isFlattened ? definition.joined(separator: ".") : nil
    default: nil
    }
  }

  public var qualifierComparisonValue: Any? { name }

  public static func == (a: Relationship, b: Relationship) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String { name }
}
