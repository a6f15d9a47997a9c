import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// Choosing the widgets of an edit form.
enum FieldWidgets {
  /// A select lists at most this many candidates of a to-one; more go to the choose page.
  static let maximumOptions = 100

  /// The widgets of `keys` on `editing`'s page; a to-one's choose page is `choose` followed
  /// by its name.
  static func widgets(
    for keys: Set<String>, editing: EditingSession, choose: String
  ) throws -> [String: FieldWidget] {
    var widgets: [String: FieldWidget] = [:]
    let object = editing.object
    let entity = object.entity
    // Two to-ones to one entity (a film's language and original language) list the same
    // choices: fetched and titled once per form.
    var choices: [String: [FieldWidget.Option]?] = [:]
    for key in keys {
      let component = editing.context.with(\.propertyKey, key).component?.name ?? ""
      if let relationship = entity.relationship(named: key) {
        widgets[key] = try toOne(
          relationship, of: object, context: editing.context,
          choose: choose + HTML.pathSegment(key), choices: &choices)
        continue
      }
      guard let attribute = entity.attribute(named: key) else { continue }
      widgets[key] = try widget(
        for: attribute, of: entity, component: component, database: object.database)
      if case .array = widgets[key]?.kind,
        case .array(let items) = object.databaseValue(forAttribute: key) ?? .null
      {
        widgets[key]?.text = DatabaseValue.arrayText(items)
      }
    }
    return widgets
  }

  /// The widget of an attribute.
  static func widget(
    for attribute: Attribute, of entity: Entity, component: String, database: Database?
  ) throws -> FieldWidget {
    if let database, attribute.valueType == .string,
      let values = try database.allowedValues(of: attribute, in: entity), !values.isEmpty
    {
      return FieldWidget(kind: .choice(values))
    }
    switch attribute.valueType {
    case .int: return FieldWidget(kind: .number(step: "1"))
    case .decimal:
      guard let scale = attribute.scale, scale > 0, scale < 10 else {
        return FieldWidget(kind: .number(step: "any"))
      }
      return FieldWidget(kind: .number(step: "0." + String(repeating: "0", count: scale - 1) + "1"))
    case .double: return FieldWidget(kind: .number(step: "any"))
    case .bool: return FieldWidget(kind: .checkbox)
    case .date:
      switch attribute.dateKind {
      case .date: return FieldWidget(kind: .date)
      case .dateTime: return FieldWidget(kind: .dateTime)
      default: return FieldWidget(kind: .text)
      }
    case .array: return FieldWidget(kind: .array)
    case .string:
      if attribute.externalType.lowercased().hasPrefix("json") { return FieldWidget(kind: .json) }
      return FieldWidget(kind: component == "EditLargeString" ? .textarea : .text)
    case .data: return FieldWidget(kind: .text)
    }
  }

  /// A to-one's widget: its candidates when they are few, else a link to the choose page.
  /// `choices` holds the choices of destinations already listed for this form (nil: too many
  /// to list), by entity name.
  static func toOne(
    _ relationship: Relationship, of object: DatabaseObject, context: RuleContext, choose: String,
    choices: inout [String: [FieldWidget.Option]?]
  ) throws -> FieldWidget? {
    guard let database = object.database,
      let destination = database.model.entity(named: relationship.destinationName)
    else { return nil }
    let current = relationship.joins.map { object.databaseValue(forAttribute: $0.source) ?? .null }
    let value: DatabaseValue =
      current.count == 1
      ? current[0] : (current.contains(where: \.isNull) ? .null : .string(keyText(current)))
    let text = current.contains(where: \.isNull) ? "" : keyText(current)
    let options: [FieldWidget.Option]?
    if let listed = choices[destination.name] {
      options = listed
    } else {
      options = try self.options(of: destination, in: database, context: context)
      choices[destination.name] = .some(options)
    }
    return FieldWidget(kind: .toOne(options: options, choose: choose), text: text, value: value)
  }

  /// The choices of a to-one into `destination`, by key, titled; nil when there are more than
  /// ``maximumOptions`` (the choose page lists them).
  ///
  /// On a pooled connection whose database is unchanged (its content version), they are kept
  /// as a page plan (``RuleContext/planned(_:_:)``): reused for every form whose rule
  /// inputs, as far as the titles read them (the user, when a title rule tests it), are the
  /// same. Each candidate is the plan's own object, so no form's object is an input.
  static func options(of destination: Entity, in database: Database, context: RuleContext)
    throws -> [FieldWidget.Option]?
  {
    guard let reader = Reader.current, reader.database === database,
      let version = try database.adaptor.contentVersion()
    else { return try listedOptions(of: destination, in: database, context: context) }
    let name =
      "options/\(destination.name)/\(reader.serial)/\(version.commits)/\(version.ownChanges)"
    return try context.planned(name) { context in
      try listedOptions(of: destination, in: database, context: context)
    }
  }

  /// ``options(of:in:context:)`` read from the database and titled now.
  private static func listedOptions(
    of destination: Entity, in database: Database, context: RuleContext
  ) throws -> [FieldWidget.Option]? {
    // One statement: one candidate more than a select lists says there are too many.
    var ordered = FetchSpecification(entityName: destination.name, limit: maximumOptions + 1)
    ordered.sortOrderings = destination.primaryKeyAttributeNames.map { SortOrdering($0) }
    let candidates = try database.fetch(ordered)
    guard candidates.count <= maximumOptions else { return nil }
    return candidates.map { candidate in
      FieldWidget.Option(
        value: keyText(candidate.primaryKeyValues), label: title(of: candidate, context: context))
    }
  }

  /// An object's title as its pages show it.
  static func title(of object: DatabaseObject, context: RuleContext) -> String {
    var context = context
    context.task = "inspect"
    context.entity = object.entity
    context.object = object
    return context.title
  }

  /// A key as a form carries it: its parts as a URL writes them, joined by commas
  /// (`INV%2F2024%2F0001`, `1,1`).
  static func keyText(_ values: [DatabaseValue]) -> String {
    WebLinks.keySegment(values.map(WebLinks.keyText))
  }

  /// The value a to-one's posted key stands for (one part, or a list of them), typed as
  /// the destination's key.
  static func keyValue(_ text: String, of relationship: Relationship, names: ModelNames) throws
    -> DatabaseValue
  {
    guard let destination = names.model.entity(named: relationship.destinationName) else {
      throw WebError(.badRequest, "\(relationship.name) leads nowhere")
    }
    let values: [DatabaseValue]
    do {
      values = try names.key(Substring(text), of: destination)
    } catch {
      throw FieldError("no \(destination.name) has the key \(text)")
    }
    return values.count == 1 ? values[0] : .list(values)
  }
}
