import D2SModel
import EnvKeys
import RuleCore

enum PropertyRows {
  /// Whether `key` is a to-many relationship of `object`'s entity: never an empty property
  /// (an empty one still shows its count), so its objects need not be fetched to ask.
  static func isToMany(_ key: String, of object: DatabaseObject) -> Bool {
    object.entity.relationship(named: key)?.isToMany ?? false
  }

  /// nil, or a string that is only whitespace.
  static func isEmpty(_ value: (any Sendable)?) -> Bool {
    guard let raw = KVC.unwrap(value) else { return true }
    if let text = raw as? String { return text.allSatisfy(\.isWhitespace) }
    return false
  }
}

/// `Last Name  SMITH` (continuation lines indented under the value).
struct PropertyNameValueRow: D2SView {
  var body: some D2SView { PropertyRow(style: .nameValue) }
}

/// The name as a heading, the value below it.
struct PropertyNameAsTitleRow: D2SView {
  var body: some D2SView { PropertyRow(style: .nameAsTitle) }
}

/// The value alone.
struct PropertyValueRow: D2SView {
  var body: some D2SView { PropertyRow(style: .valueOnly) }
}

/// A to-many relationship: its name, its count, and how to follow it.
struct NamedToManyLinkRow: D2SView {
  var body: some D2SView { PropertyRow(style: .nameValue, content: Count()) }

  struct Count: PrimitiveView {
    func node(in scope: ViewScope) throws -> ViewNode {
      let context = scope.context
      guard let object = context.object, let database = context.database else { return .empty }
      let count =
        try scope.environment.toManyCounts?.count(context.propertyKey, of: object)
        ?? database.countToMany(context.propertyKey, of: object)
      let shown = ViewNode.value(ShownValue(.int(count), text: "\(count)"), wraps: false)
      // Followed only into an entity the user may reach.
      guard let relationship = object.entity.relationship(named: context.propertyKey),
        context.isEntityReachable(relationship.destinationName)
      else { return shown }
      return .line([shown, .action(.follow(relationship: context.propertyKey))], separator: " ")
    }
  }
}

/// An object's title.
struct TitledSummaryRow: D2SView {
  @Environment(\.object) var object
  var body: some D2SView {
    if let object { FormattedValue(object) }
  }
}
