import D2SModel
import RuleCore

/// The database: name, entity count.
struct DebugDatabaseInfo: DebugLines {
  func lines(_ context: RuleContext) -> [String] {
    guard let database = context.database else { return ["[debug] no database"] }
    return ["[debug] database \(database.name): \(database.model.entities.count) entities"]
  }
}

/// The entity: table, attributes and relationships counts, primary key.
struct DebugEntityInfo: DebugLines {
  func lines(_ context: RuleContext) -> [String] {
    guard let entity = context.entity else { return DebugDatabaseInfo().lines(context) }
    return [
      "[debug] entity \(entity.name) (table \(entity.externalName)): \(entity.attributes.count) attributes, \(entity.relationships.count) relationships, primary key \(entity.primaryKeyAttributeNames.joined(separator: ", "))\(entity.isReadOnly ? ", read-only" : "")"
    ]
  }
}

/// The entity's attributes with columns and types, and its relationships.
struct DebugEntityDetails: DebugLines {
  func lines(_ context: RuleContext) -> [String] {
    guard let entity = context.entity else { return [] }
    var lines = DebugEntityInfo().lines(context)
    for attribute in entity.attributes {
      let column = attribute.columnName == attribute.name ? "" : " (\(attribute.columnName))"
      lines.append(
        "[debug]   \(attribute.name)\(column): \(attribute.valueType.rawValue)\(attribute.allowsNull ? "?" : "") \(attribute.externalType)"
      )
    }
    for relationship in entity.relationships {
      lines.append(
        "[debug]   \(relationship.name): \(relationship.kind) \(relationship.destinationName)")
    }
    return lines
  }
}

/// The object's pending changes.
struct DebugObjectEditInfo: DebugLines {
  func lines(_ context: RuleContext) -> [String] {
    guard let object = context.object else { return [] }
    let changed = object.changedKeys
    return [
      "[debug] \(object) \(object.isNew ? "new" : "fetched"), changed: \(changed.isEmpty ? "nothing" : changed.joined(separator: ", "))"
    ]
  }
}

/// A debug view: lines of text about the context.
protocol DebugLines: PrimitiveView {
  func lines(_ context: RuleContext) -> [String]
}

extension DebugLines {
  func node(in scope: ViewScope) throws -> ViewNode {
    let lines = lines(scope.context)
    return lines.isEmpty ? .empty : .text(lines.joined(separator: "\n"))
  }
}
