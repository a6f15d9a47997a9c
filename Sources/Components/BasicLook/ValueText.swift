import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// The text of the context's property value: through its formatter, `displayStringForNil` for
/// nil, titles for objects.
enum ValueText {
  static func of(_ context: RuleContext, _ environment: RenderEnvironment) -> String {
    guard let raw = KVC.unwrap(context.propertyValue) else { return context.displayStringForNil }
    return describe(raw, context, environment) ?? context.displayStringForNil
  }

  static func describe(_ raw: Any, _ context: RuleContext, _ environment: RenderEnvironment) -> String? {
    if let object = raw as? DatabaseObject { return title(of: object, context) }
    if let objects = raw as? [DatabaseObject] { return objects.map { title(of: $0, context) }.joined(separator: ", ") }
    guard let value = DatabaseValue(any: raw) else { return String(describing: raw) }
    if let name = context.formatter, let formatter = environment.formatters.formatter(named: name.name) {
      return formatter.format(value, for: context.attribute)
    }
    return plain(value)
  }

  static func plain(_ value: DatabaseValue) -> String {
    switch value {
    case .null: ""
    case .int(let i): String(i)
    case .double(let d): String(d)
    case .decimal(let d): d.description
    case .string(let s): s
    case .bool(let b): b ? "✓" : "✗"
    case .date(let d): ISODateText.format(d)
    case .data(let data): "<\(data.count) bytes>"
    case .array(let items): items.joined(separator: ", ")
    }
  }

  /// An object's title by the rules, in a context for that object.
  static func title(of object: DatabaseObject, _ context: RuleContext) -> String {
    var child = context
    child.entity = object.entity
    child.object = object
    child.propertyKey = ""
    child.removeValue(for: D2SKeys.Title.self)
    return child.title
  }
}
