import D2SModel
import EnvKeys
import RuleCore

enum PropertyRows {
  /// nil, or a string that is only whitespace.
  static func isEmpty(_ value: (any Sendable)?) -> Bool {
    guard let raw = KVC.unwrap(value) else { return true }
    if let text = raw as? String { return text.allSatisfy(\.isWhitespace) }
    return false
  }

  static func label(_ context: RuleContext, _ environment: RenderEnvironment) -> String {
    TextWidth.pad(context.displayNameForProperty, to: environment.labelWidth)
  }
}

/// `Last Name  SMITH` (continuation lines indented under the value).
struct PropertyNameValueRow: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let label = PropertyRows.label(context, environment)
    let value = try environment.render(\.component, in: context)
    guard let first = value.first else { return [label] }
    let indent = String(repeating: " ", count: TextWidth.of(label) + 2)
    return [label + "  " + first] + value.dropFirst().map { indent + $0 }
  }
}

/// The name as a heading, the value below it.
struct PropertyNameAsTitleRow: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    [context.displayNameForProperty + ":"] + (try environment.render(\.component, in: context)).map { "  " + $0 }
  }
}

/// The value alone.
struct PropertyValueRow: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    try environment.render(\.component, in: context)
  }
}

/// A to-many relationship: its name, its count, and how to follow it.
struct NamedToManyLinkRow: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let label = PropertyRows.label(context, environment)
    guard let object = context.object, let database = context.database else { return [label] }
    let count = try database.countToMany(context.propertyKey, of: object)
    return ["\(label)  \(count) (follow \(context.propertyKey))"]
  }
}

/// An object's title.
struct TitledSummaryRow: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let object = context.object else { return [] }
    return [ValueText.title(of: object, context)]
  }
}
