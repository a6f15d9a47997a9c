import EnvKeys

/// The entities of a database, read from its catalog.
public final class Model: Sendable, KeyValueCoding, CustomStringConvertible,
  RuleCacheFingerprinting
{
  /// Identifies the model in rule caches and page plans (a model never changes).
  public let ruleCacheIdentity = RuleCacheIdentity.next()
  /// Always 0: a model never changes once read.
  public var ruleCacheVersion: Int { 0 }
  /// Entities sorted by name.
  public let entities: [Entity]
  private let byName: [String: Entity]

  /// A model of `entities`, kept sorted by name.
  public init(entities: [Entity]) {
    self.entities = entities.sorted { $0.name < $1.name }
    self.byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// An empty model.
  public static let empty = Model(entities: [])

  /// The entity named exactly `name`.
  public func entity(named name: String) -> Entity? { byName[name] }

  /// The entity named `name` exactly, else case-insensitively when that is unique.
  public func lookupEntity(_ name: String) -> Entity? {
    if let exact = byName[name] { return exact }
    let matches = entities.filter { $0.name.lowercased() == name.lowercased() }
    return matches.count == 1 ? matches[0] : nil
  }

  /// The entity for a table name.
  public func entity(externalName: String) -> Entity? {
    entities.first { $0.externalName == externalName }
  }

  /// The model by name for rules: `entities`, `entityNames`, and an entity by its name.
  public func value(forKey key: String) -> Any? {
    switch key {
    case "entities": entities
    case "entityNames": entities.map(\.name)
    default: byName[key]
    }
  }

  /// `Model(16 entities)`.
  public var description: String { "Model(\(entities.count) entities)" }
}
