import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// The text of values: through the context's formatter, `displayStringForNil` for nil, titles
/// for objects. Package authors use ``FormattedValue``, which is built on this.
enum ValueText {
  /// A typed, non-nil value through the context's formatter, else plainly.
  static func text(
    of value: DatabaseValue, _ context: RuleContext, _ environment: RenderEnvironment
  ) -> String {
    if let name = context.formatter,
      let formatter = environment.formatters.formatter(named: name.name)
    {
      return formatter.format(value, for: context.attribute)
    }
    return plain(value)
  }

  /// A value without a formatter: as stored (``DatabaseValue/storedText(quotingText:)``),
  /// booleans as ✓ and ✗.
  static func plain(_ value: DatabaseValue) -> String {
    switch value {
    case .string(let s): s
    case .bool(let b): b ? "✓" : "✗"
    default: value.storedText()
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

/// The edit state of the context's property on the object being edited.
enum EditState {
  /// The attribute the property stores into (a to-one: its foreign key).
  static func key(_ context: RuleContext) -> String {
    context.relationship?.joins.first?.source ?? context.propertyKey
  }

  /// Whether the property has an unsaved change.
  static func isChanged(_ context: RuleContext) -> Bool {
    context.object?.changedKeys.contains(key(context)) ?? false
  }

  /// `required` when a value is needed and missing, else nil.
  static func invalidReason(_ context: RuleContext) -> String? {
    guard let object = context.object else { return nil }
    guard
      let attribute = context.attribute
        ?? context.relationship.flatMap({
          object.entity.attribute(named: $0.joins.first?.source ?? "")
        }),
      !attribute.allowsNull, !attribute.isAutoIncrement, attribute.defaultValue == nil,
      !(object.isNew && attribute.valueType == .date),  // an insert stamps these with now
      object.databaseValue(forAttribute: attribute.name)?.isNull ?? true
    else { return nil }
    return "required"
  }
}
