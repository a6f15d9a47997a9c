import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// Direct to Web's query page for an entity (`task = 'query'` with an entity): one control per
/// `queryPropertyKeys` property (else the list's columns), chosen by `queryComponent` or by
/// the property's type. What a person fills in becomes the qualifier `where=` takes, written
/// in its grammar, so that the list shows it and the person learns it.
public struct QueryForm: Sendable {
  /// One value a choice offers.
  public struct Choice: Sendable, Equatable {
    /// The value as the filter grammar writes it (`'PG'`, `true`, `1`).
    public var literal: String
    /// The text shown.
    public var text: String
  }

  /// A property's control.
  public enum Control: Sendable, Equatable {
    /// Text: contains, starts with or equals (`QueryText`).
    case text
    /// Numbers or dates: from–to, either end open (`QueryRange`).
    case range(date: Bool)
    /// One of the property's values (`QueryChoice`): a boolean's, an enum's, a to-one's rows.
    case choice([Choice])

    /// The control's name, as `queryComponent` names it.
    public var name: String {
      switch self {
      case .text: "QueryText"
      case .range: "QueryRange"
      case .choice: "QueryChoice"
      }
    }

    /// The operators it offers, as the REPL and JSON name them.
    public var operators: [String] {
      switch self {
      case .text: TextOperator.allCases.map(\.rawValue)
      case .range: ["from", "to"]
      case .choice: ["is"]
      }
    }
  }

  /// A text control's operators.
  public enum TextOperator: String, Sendable, CaseIterable {
    /// The text anywhere in the value.
    case contains
    /// The value begins with the text.
    case startsWith = "starts with"
    /// The value is the text.
    case equals
  }

  /// A property's field.
  public struct Field: Sendable {
    /// The property key (`title`, `language`).
    public var key: String
    /// The label.
    public var label: String
    /// The control.
    public var control: Control
    /// The key path the qualifier compares (a to-one's destination key: `language.languageId`).
    public var path: String
  }

  /// The most rows of a to-one's destination a choice lists.
  public static let choiceLimit = 100

  /// The entity's name.
  public var entity: String
  /// The fields, in order.
  public var fields: [Field]

  /// The query form of `context`'s entity (its `database` set): a field per property a
  /// control fits (a to-one with more than ``choiceLimit`` rows, or a key of more than one
  /// column, has none; nor has a password or a blob).
  public init(context: RuleContext) throws {
    guard let entity = context.entity, let database = context.database else {
      throw DatabaseError(.invalidValue, "no entity to query")
    }
    var query = context
    query.task = "query"
    var list = context
    list.task = "list"
    let keys = query.queryPropertyKeys.isEmpty ? list.displayPropertyKeys : query.queryPropertyKeys
    var fields: [Field] = []
    for key in keys where !key.contains(".") {
      let property = query.with(\.propertyKey, key)
      let label = property.displayNameForProperty
      let named = property.queryComponent
      if let relationship = entity.relationship(named: key), !relationship.isToMany {
        // A to-one into an entity the user may not reach has no field (as no choose list).
        guard query.isEntityReachable(relationship.destinationName),
          let destination = database.model.entity(named: relationship.destinationName),
          destination.primaryKeyAttributes.count == 1,
          let destinationKey = destination.primaryKeyAttributes.first,
          let choices = try Self.rows(of: destination, in: database, context: property)
        else { continue }
        fields.append(
          Field(
            key: key, label: label, control: .choice(choices),
            path: key + "." + destinationKey.name))
        continue
      }
      guard let attribute = entity.attribute(named: key), !attribute.isPassword,
        attribute.valueType != .data, attribute.valueType != .array
      else { continue }
      let control: Control
      switch named {
      case "QueryText": control = .text
      case "QueryRange": control = .range(date: attribute.valueType == .date)
      case "QueryChoice":
        control = .choice(try Self.values(of: attribute, in: entity, database: database))
      default:
        switch attribute.valueType {
        case .int, .double, .decimal: control = .range(date: false)
        case .date: control = .range(date: true)
        case .bool: control = .choice(Self.booleans)
        default:
          let allowed = try database.allowedValues(of: attribute, in: entity)
          control =
            allowed.map { .choice($0.map { Choice(literal: Literal.quote($0), text: $0) }) }
            ?? .text
        }
      }
      fields.append(Field(key: key, label: label, control: control, path: key))
    }
    self.entity = entity.name
    self.fields = fields
  }

  static let booleans = [
    Choice(literal: "true", text: "yes"), Choice(literal: "false", text: "no"),
  ]

  /// A to-one's choices: its destination's rows by title, at most ``choiceLimit``; nil when
  /// there are more.
  private static func rows(of destination: Entity, in database: Database, context: RuleContext)
    throws -> [Choice]?
  {
    let objects = try database.fetch(
      FetchSpecification(entityName: destination.name, limit: choiceLimit + 1))
    guard objects.count <= choiceLimit else { return nil }
    return objects.compactMap { object in
      guard let key = object.primaryKeyValues.first else { return nil }
      return Choice(literal: key.qualifierText, text: ValueText.title(of: object, context))
    }
  }

  /// An attribute's choices, when its values are a few: the enum's or the check's, else the
  /// booleans for a boolean, else none.
  private static func values(of attribute: Attribute, in entity: Entity, database: Database)
    throws -> [Choice]
  {
    if attribute.valueType == .bool { return booleans }
    let allowed = try database.allowedValues(of: attribute, in: entity) ?? []
    return allowed.map { Choice(literal: Literal.quote($0), text: $0) }
  }

  /// The qualifier, in the filter grammar, of what was filled in: for field `KEY`, `KEY.op`
  /// (`contains`, `starts with`, `equals`) and `KEY` for text, `KEY.from` and `KEY.to` for a
  /// range, `KEY` (a choice's literal) for a choice; empty values are left out. Empty when
  /// nothing was filled in.
  ///
  /// - Throws: ``QueryFormError`` for a value a control does not take (a range's end that is
  ///   no number, a choice not offered).
  public func qualifierText(_ parameters: [(String, String)]) throws -> String {
    func value(_ name: String) -> String? {
      parameters.last { $0.0 == name }.map(\.1).flatMap {
        let trimmed = $0.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
      }
    }
    var parts: [String] = []
    for field in fields {
      switch field.control {
      case .text:
        guard let text = value(field.key) else { continue }
        let op = TextOperator(rawValue: value(field.key + ".op") ?? "contains") ?? .contains
        let pattern = Self.likeLiteral(text)
        switch op {
        case .contains: parts.append("\(field.path) ilike " + Literal.quote("*" + pattern + "*"))
        case .startsWith: parts.append("\(field.path) ilike " + Literal.quote(pattern + "*"))
        case .equals: parts.append("\(field.path) = " + Literal.quote(text))
        }
      case .range(let date):
        for (end, op) in [("from", ">="), ("to", "<=")] {
          guard let text = value(field.key + "." + end) else { continue }
          if date {
            // A day as the end of a range of date-times: up to the day's end.
            if end == "to", let next = Self.dayAfter(text) {
              parts.append("\(field.path) < " + Literal.quote(next))
            } else {
              parts.append("\(field.path) \(op) " + Literal.quote(text))
            }
          } else {
            // A number the filter grammar reads (`1e400` is none: it is no finite double).
            guard Double(text)?.isFinite == true,
              text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }),
              (try? QualifierParser.parse("x = \(text)")) != nil
            else {
              throw QueryFormError(message: "\(field.label) \(end): expected a number, not \(text)")
            }
            parts.append("\(field.path) \(op) \(text)")
          }
        }
      case .choice(let choices):
        guard let literal = value(field.key) else { continue }
        guard choices.contains(where: { $0.literal == literal }) else {
          throw QueryFormError(message: "\(field.label): not one of the values offered")
        }
        parts.append("\(field.path) = \(literal)")
      }
    }
    return parts.joined(separator: " and ")
  }

  /// `text` for a `like` pattern, its `*` and `?` escaped: matched as typed (as the search
  /// box's words are).
  static func likeLiteral(_ text: String) -> String { SearchText.literal(text) }

  /// The day after `text` when it is a day (`2006-02-15` → `2006-02-16`); nil otherwise.
  static func dayAfter(_ text: String) -> String? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, text.count == 10, (1...12).contains(parts[1]),
      (1...31).contains(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    guard
      let day = calendar.date(
        from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
      calendar.component(.day, from: day) == parts[2],
      let next = calendar.date(byAdding: .day, value: 1, to: day)
    else { return nil }
    let components = calendar.dateComponents([.year, .month, .day], from: next)
    return String(
      format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
  }

  /// The form as JSON: the entity, and each field's key, label, control, operators and
  /// choices.
  public var json: String {
    JSONText.object([
      ("entity", JSONText.string(entity)),
      (
        "fields",
        JSONText.array(
          fields.map { field in
            var members = [
              ("key", JSONText.string(field.key)), ("label", JSONText.string(field.label)),
              ("control", JSONText.string(field.control.name)),
              ("operators", JSONText.array(field.control.operators.map(JSONText.string))),
              ("path", JSONText.string(field.path)),
            ]
            if case .choice(let choices) = field.control {
              members.append(
                (
                  "choices",
                  JSONText.array(
                    choices.map {
                      JSONText.object([
                        ("literal", JSONText.string($0.literal)),
                        ("text", JSONText.string($0.text)),
                      ])
                    })
                ))
            }
            return JSONText.object(members)
          })
      ),
    ])
  }
}

/// A value a query form's control does not take.
public struct QueryFormError: Error, Sendable, CustomStringConvertible {
  /// What is wrong, naming the field.
  public var message: String
  /// The message.
  public var description: String { message }
}
