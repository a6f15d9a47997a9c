import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

extension D2SKeys {
  /// The keys whose values are database and model objects: printed by name (objects as
  /// `Staff(1) 'Mike'`); entities, attributes and relationships are set by name and resolved
  /// against the context's model and entity.
  static func exposeModelKeys(in registry: D2SContextKVC) throws {
    func unsettable<V>(_ what: String, _ how: String) -> @Sendable (Literal) throws -> V {
      { literal in throw LiteralCoercionError(expectedType: what, literal: literal, hint: how) }
    }
    try registry.expose(
      ExposedKey(
        DatabaseKey.self, valueTypeName: "Database?",
        coerce: unsettable("Database?", "use `open DATABASE`"),
        literal: { $0.map { .string($0.name) } ?? .null }))
    try registry.expose(
      ExposedKey(
        ModelKey.self, valueTypeName: "Model",
        coerce: unsettable("Model", "the model comes from the database"), literal: { _ in nil },
        describe: { $0.description }))
    try registry.expose(
      ExposedKey(
        EntityKey.self, valueTypeName: "Entity?",
        coerceInContext: { literal, context in
          if case .null = literal { return nil }
          guard case .string(let name) = literal else {
            throw LiteralCoercionError(
              expectedType: "Entity?", literal: literal, hint: "write the entity's name")
          }
          guard let model = context?.value(forKey: "model") as? Model else {
            throw LiteralCoercionError(
              expectedType: "Entity?", literal: literal, hint: "no model to find it in")
          }
          guard let entity = model.lookupEntity(name) else {
            throw LiteralCoercionError(
              expectedType: "Entity?", literal: literal, hint: "no entity named \(name)")
          }
          return entity
        }, literal: { $0.map { .string($0.name) } ?? .null }))
    try registry.expose(
      ExposedKey(
        AttributeKey.self, valueTypeName: "Attribute?",
        coerceInContext: { literal, context in
          if case .null = literal { return nil }
          guard case .string(let property) = literal,
            let entity = context?.value(forKey: "entity") as? Entity,
            let attribute = entity.attribute(named: property)
          else {
            throw LiteralCoercionError(
              expectedType: "Attribute?", literal: literal, hint: "name an attribute of the entity")
          }
          return attribute
        }, literal: { $0.map { .string($0.name) } ?? .null }))
    try registry.expose(
      ExposedKey(
        RelationshipKey.self, valueTypeName: "Relationship?",
        coerceInContext: { literal, context in
          if case .null = literal { return nil }
          guard case .string(let property) = literal,
            let entity = context?.value(forKey: "entity") as? Entity,
            let relationship = entity.relationship(named: property)
          else {
            throw LiteralCoercionError(
              expectedType: "Relationship?", literal: literal,
              hint: "name a relationship of the entity")
          }
          return relationship
        }, literal: { $0.map { .string($0.name) } ?? .null }))
    try registry.expose(
      ExposedKey(
        PropertyValue.self, valueTypeName: "value",
        coerce: { literal in literal },
        literal: { value in
          value.map { DatabaseValue(any: KVC.unwrap($0))?.literalForPrinting ?? nil } ?? .null
        },
        cast: { AnySendableValue($0) }))
    try exposeObjectKey(Object.self, "object", how: "use `inspect` or `edit`", in: registry)
    try exposeObjectKey(User.self, "user", how: "use `login USER PASSWORD`", in: registry)
    try registry.expose(
      ExposedKey(
        AuxiliaryQualifier.self, valueTypeName: "Qualifier?",
        coerce: { try Qualifier?(contextLiteral: $0) }, literal: { $0.contextLiteral },
        describe: {
          $0.map { "\"\($0.description.replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "nil"
        }))
  }
}

extension D2SKeys {
  static func exposeObjectKey<K: DynamicEnvironmentKey>(
    _ key: K.Type, _ name: String, how: String, in registry: D2SContextKVC
  )
    throws where K.Value == DatabaseObject?
  {
    try registry.expose(
      ExposedKey(
        key, name: name, valueTypeName: "DatabaseObject?",
        coerce: { literal in
          throw LiteralCoercionError(expectedType: "DatabaseObject?", literal: literal, hint: how)
        },
        literal: { $0 == nil ? .null : nil }, describe: { $0.map(\.displayDescription) ?? "nil" }))
  }
}

extension DatabaseValue {
  /// The value as a literal for `show` (data as nil: it prints as `<n bytes>` instead).
  var literalForPrinting: Literal? {
    switch self {
    case .null: .null
    case .int(let i): .int(i)
    case .double(let d): Decimal(string: "\(d)").map { .decimal($0) }
    case .decimal(let d): .decimal(d)
    case .string(let s): .string(s)
    case .bool(let b): .bool(b)
    case .date(let d): .string(ISODateText.format(d))
    case .data: nil
    case .array(let items): .list(items.map { $0.map { .string($0) } ?? .null })
    case .verbatim(let s): .string(s)
    case .textBytes(let bytes): .string(DatabaseValue.escapedText(bytes))
    case .list(let items): .list(items.map { $0.literalForPrinting ?? .null })
    }
  }
}
