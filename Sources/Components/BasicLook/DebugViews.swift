import D2SModel
import RuleCore

/// The database: name, entity count.
struct DebugDatabaseInfo: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let database = context.database else { return ["[debug] no database"] }
    return ["[debug] database \(database.name): \(database.model.entities.count) entities"]
  }
}

/// The entity: table, attributes and relationships counts, primary key.
struct DebugEntityInfo: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let entity = context.entity else { return try DebugDatabaseInfo().render(in: context, environment) }
    return [
      "[debug] entity \(entity.name) (table \(entity.externalName)): \(entity.attributes.count) attributes, \(entity.relationships.count) relationships, primary key \(entity.primaryKeyAttributeNames.joined(separator: ", "))\(entity.isReadOnly ? ", read-only" : "")"
    ]
  }
}

/// The entity's attributes with columns and types, and its relationships.
struct DebugEntityDetails: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let entity = context.entity else { return [] }
    var lines = try DebugEntityInfo().render(in: context, environment)
    for attribute in entity.attributes {
      let column = attribute.columnName == attribute.name ? "" : " (\(attribute.columnName))"
      lines.append("[debug]   \(attribute.name)\(column): \(attribute.valueType.rawValue)\(attribute.allowsNull ? "?" : "") \(attribute.externalType)")
    }
    for relationship in entity.relationships {
      lines.append("[debug]   \(relationship.name): \(relationship.kind) \(relationship.destinationName)")
    }
    return lines
  }
}

/// The object's pending changes.
struct DebugObjectEditInfo: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let object = context.object else { return [] }
    let changed = object.changedKeys
    return ["[debug] \(object) \(object.isNew ? "new" : "fetched"), changed: \(changed.isEmpty ? "nothing" : changed.joined(separator: ", "))"]
  }
}
