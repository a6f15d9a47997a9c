import Components
import D2SApplication
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The reading tools: entities, describe, list, inspect, follow.
extension AgentTools {
  /// `entities`: the entity list the user sees, with what they may do.
  func entities() throws -> String {
    let items = entityNames.compactMap { name -> String? in
      guard let entity = context.model.entity(named: name) else { return nil }
      var list = context
      list.task = "list"
      list.entity = entity
      var edit = list
      edit.task = "edit"
      let label = list.displayNameForEntity
      return JSONText.object([
        ("name", JSONText.string(name)),
        ("label", JSONText.string(label.isEmpty ? name : label)),
        ("mayCreate", !entity.isReadOnly && !edit.isEntityReadOnly ? "true" : "false"),
        ("writes", JSONText.string(edit.agentWrites)),
      ])
    }
    return JSONText.object([("entities", JSONText.array(items))])
  }

  /// `describe`: an entity's fields as JSON Schema, from the rules: their labels, types,
  /// formats, which a new object needs, which an agent may not change.
  func describe(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    var inspect = context
    inspect.task = "inspect"
    inspect.entity = entity
    var edit = inspect
    edit.task = "edit"
    let editable = Set(edit.displayPropertyKeys)
    var properties: [(String, String)] = []
    var required: [String] = []
    for key in inspect.displayPropertyKeys {
      let label = inspect.with(\.propertyKey, key).displayNameForProperty
      var fields: [(String, String)] = [("title", JSONText.string(label))]
      if let attribute = entity.attribute(named: key) {
        guard !attribute.isPassword else { continue }
        fields += Self.schemaType(of: attribute)
        if attribute.allowsNull { fields.append(("nullable", "true")) }
        let writable =
          editable.contains(key) && !attribute.isGenerated && !attribute.isRowID
          && !entity.primaryKeyAttributeNames.contains(key) && attribute.valueType != .data
        if !writable { fields.append(("readOnly", "true")) }
        if !attribute.allowsNull, attribute.defaultValue == nil, !attribute.isAutoIncrement,
          !attribute.isGenerated, attribute.valueType != .date
        {
          required.append(key)
        }
      } else if let relationship = entity.relationship(named: key) {
        if relationship.isToMany {
          fields += [
            ("type", JSONText.string("array")),
            (
              "description",
              JSONText.string("the \(relationship.destinationName) rows: the follow tool")
            ),
            ("readOnly", "true"),
          ]
        } else {
          fields += [
            ("type", JSONText.string("string")),
            (
              "description",
              JSONText.string(
                "a \(relationship.destinationName): its primary key (inspect shows its title)")
            ),
          ]
          if !editable.contains(key) { fields.append(("readOnly", "true")) }
        }
      } else {
        fields += [("readOnly", "true")]
      }
      properties.append((key, JSONText.object(fields)))
    }
    let schema = JSONText.object([
      ("type", JSONText.string("object")),
      ("title", JSONText.string(inspect.displayNameForEntity)),
      ("properties", JSONText.object(properties)),
      ("required", JSONText.array(required.map(JSONText.string))),
    ])
    return JSONText.object([
      ("entity", JSONText.string(entity.name)),
      ("key", JSONText.array(entity.primaryKeyAttributeNames.map(JSONText.string))),
      ("schema", schema),
    ])
  }

  /// The JSON Schema type (and format) of a column's values as the agent reads them.
  static func schemaType(of attribute: Attribute) -> [(String, String)] {
    switch attribute.valueType {
    case .int: return [("type", JSONText.string("integer"))]
    case .double: return [("type", JSONText.string("number"))]
    case .decimal:
      return [
        ("type", JSONText.array([JSONText.string("number"), JSONText.string("string")])),
        ("description", JSONText.string("exact: a string where a JSON number would round")),
      ]
    case .bool: return [("type", JSONText.string("boolean"))]
    case .date:
      let format =
        switch attribute.dateKind {
        case .date: "date"
        case .time: "time"
        default: "date-time"
        }
      return [("type", JSONText.string("string")), ("format", JSONText.string(format))]
    case .data:
      return [("type", JSONText.string("string")), ("contentEncoding", JSONText.string("base64"))]
    case .array: return [("type", JSONText.string("array"))]
    case .string: return [("type", JSONText.string("string"))]
    }
  }

  /// `list`: a window of an entity's rows, filtered (`where`, D2S's grammar) and sorted
  /// (`order`), `after` a position the last call returned.
  func list(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    return try listPage(of: entity, within: nil, arguments, title: nil)
  }

  /// `inspect`: one row's page.
  func inspect(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    let object = try self.object(of: entity, arguments.key())
    return try page(PageRequest(task: "inspect", entityName: entity.name, object: object))
  }

  /// `follow`: a relationship of one row: a to-many's rows (a list, paged as `list` is), or
  /// a to-one's page.
  func follow(_ arguments: Arguments) throws -> String {
    let entity = try self.entity(arguments)
    let object = try self.object(of: entity, arguments.key())
    let name = try names.property(try arguments.required("relationship"), of: entity)
    guard let relationship = entity.relationship(named: name),
      context.isEntityReachable(relationship.destinationName)
    else { throw ToolError("\(entity.name) has no relationship \(name)") }
    let destination = try names.entity(relationship.destinationName)
    if relationship.isToMany {
      return try listPage(
        of: destination,
        within: context.database.map { $0.qualifier(for: relationship, of: object) },
        arguments, title: context.title(ofRelationship: name, of: object))
    }
    guard let target = try object.related(name) else {
      throw ToolError("\(entity.name) \(object.primaryKeyDescription) has no \(name)")
    }
    return try page(PageRequest(task: "inspect", entityName: destination.name, object: target))
  }

  /// A list page of `entity` (within a to-many's `auxiliary` qualifier), with `next`: the
  /// arguments of the window after it, or null at the list's end.
  func listPage(
    of entity: Entity, within auxiliary: Qualifier?, _ arguments: Arguments, title: String?
  ) throws -> String {
    let whereText = try arguments.string("where") ?? ""
    let qualifier =
      whereText.isEmpty
      ? nil : try names.qualifier(try QualifierParser.parse(whereText), from: entity)
    if let qualifier { try names.requireBoundedWork(qualifier, from: entity) }
    let orderings =
      try (try arguments.string("order")).map {
        try names.orderings($0, from: entity)
      } ?? []
    for path in (qualifier?.keyPaths.map(\.components) ?? [])
      + orderings.map({ $0.keyPath.split(separator: ".").map(String.init) })
    where context.model.toManyHops(path, from: entity) > maximumToManyHops {
      throw ToolError(
        "\(path.joined(separator: ".")) crosses more than \(maximumToManyHops) to-many relationships"
      )
    }
    let limit = try arguments.integer("limit") ?? defaultRows
    guard (1...maximumRows).contains(limit) else {
      throw ToolError("limit: from 1 to \(maximumRows)")
    }
    var list = ListRequest(qualifier: qualifier, sortOrderings: orderings, limit: limit)
    let identity = list.identity(of: entity, auxiliary: auxiliary)
    if let after = try arguments.string("after") {
      do {
        list.keyset = .after(
          try list.position(after, of: entity, auxiliary: auxiliary, in: context.model))
      } catch let error as PositionTokenError {
        throw ToolError("after: \(error.message)")
      }
      list.offset = try arguments.integer("offset") ?? 0
      guard list.offset >= 0 else {
        throw ToolError("offset: 0 or more, the number next gave")
      }
    }
    var request = PageRequest(task: "list", entityName: entity.name, list: list)
    request.auxiliaryQualifier = auxiliary
    request.title = title
    let output = StringOutput()
    let rendered = try pages.render(json(request), to: output)
    var next = "null"
    if let start = rendered.displayGroup?.shown?.next(offset: list.offset, in: identity) {
      next = JSONText.object([
        ("after", JSONText.string(start.token)), ("offset", "\(start.offset)"),
      ])
    }
    var text = output.text
    Self.add([("next", next)], to: &text)
    return text
  }

  /// The JSON of the page `request` asks for.
  func page(_ request: PageRequest) throws -> String {
    var text = try pages.render(json(request))
    while text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
    return text
  }

  /// `request` for the JSON renderer, as the agent's user.
  func json(_ request: PageRequest) -> PageRequest {
    var request = request
    request.platform = "json"
    request.width = nil
    request.user = user
    return request
  }

  /// Adds `members` at the end of the object `text` holds (`{…}`, its line feed dropped), in
  /// place: a page's text is not copied.
  static func add(_ members: [(String, String)], to text: inout String) {
    while text.utf8.last == UInt8(ascii: "\n") { text.removeLast() }
    guard text.utf8.last == UInt8(ascii: "}") else { return }
    text.removeLast()
    for (name, value) in members { text += "," + JSONText.string(name) + ":" + value }
    text += "}"
  }

  /// The entity `arguments` name, among those the agent is given.
  func entity(_ arguments: Arguments) throws -> Entity {
    let name = try arguments.required("entity")
    guard reachableEntityNames.contains(name), let entity = context.model.entity(named: name)
    else {
      throw ToolError("no entity \(name) here (the entities tool lists them)")
    }
    return entity
  }

  /// The row of `entity` with key `parts`.
  func object(of entity: Entity, _ parts: [String]) throws -> DatabaseObject {
    try entity.requireDetails()  // no key is read as missing while the columns cannot be
    let attributes = entity.primaryKeyAttributes
    let missing = ToolError("no \(entity.name) with key \(parts.joined(separator: ","))")
    guard !attributes.isEmpty, attributes.count == parts.count, let database = context.database
    else { throw missing }
    let key = try zip(attributes, parts).map { attribute, text -> DatabaseValue in
      if attribute.valueType == .int {
        guard let number = Int(text) else { throw missing }
        return .int(number)
      }
      let typed = DatabaseValue.string(text)
      return (try? DatabaseValue.coerce(typed, to: attribute)) ?? typed
    }
    if let object = try database.fetchObject(entity.name, primaryKey: key) { return object }
    // A key part of text that is not UTF-8, as JSON gives it: its bytes in base64 (tried
    // only when no row has the text itself).
    let bytes = zip(attributes, parts).map { attribute, text -> DatabaseValue? in
      guard attribute.valueType == .string, let data = Data(base64Encoded: text),
        String(data: data, encoding: .utf8) == nil
      else { return nil }
      return .textBytes(data)
    }
    guard bytes.contains(where: { $0 != nil }),
      let object = try database.fetchObject(
        entity.name, primaryKey: zip(key, bytes).map { $1 ?? $0 })
    else { throw missing }
    return object
  }
}
