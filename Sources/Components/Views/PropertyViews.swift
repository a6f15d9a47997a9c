import D2SModel
import EnvKeys
import RuleCore

/// A value shown the way BasicLook shows it: through the context's `formatter`, nil as
/// `displayStringForNil`, related objects by their titles. With no argument, the context's
/// `propertyValue`.
public struct FormattedValue: PrimitiveView {
  let value: (any Sendable)??
  let wraps: Bool

  /// The context's `propertyValue`; `wraps` asks a terminal to wrap long text to its width.
  public init(wraps: Bool = false) {
    self.value = .none
    self.wraps = wraps
  }

  /// `value` instead of the context's `propertyValue`.
  public init(_ value: (any Sendable)?, wraps: Bool = false) {
    self.value = .some(value)
    self.wraps = wraps
  }

  /// The value as BasicLook shows it, with its text.
  public func node(in scope: ViewScope) throws -> ViewNode {
    let raw: (any Sendable)? = value ?? scope.context.propertyValue
    return .value(Self.shown(raw, in: scope), wraps: wraps)
  }

  /// `value` as BasicLook shows it in `scope`: the typed value and its text.
  public static func shown(_ value: Any?, in scope: ViewScope) -> ShownValue {
    let context = scope.context
    guard let raw = KVC.unwrap(value) else {
      return ShownValue(.null, text: context.displayStringForNil)
    }
    if let object = raw as? DatabaseObject {
      return ShownValue(titleValue(object), text: ValueText.title(of: object, context))
    }
    // By type, not by cast: an empty array of any element type casts to `[DatabaseObject]`.
    if Swift.type(of: raw) == [DatabaseObject].self, let objects = raw as? [DatabaseObject] {
      let titles = objects.map { ValueText.title(of: $0, context) }
      return ShownValue(.array(titles), text: titles.joined(separator: ", "))
    }
    guard let typed = DatabaseValue(any: raw) else {
      return ShownValue(.string(String(describing: raw)), text: String(describing: raw))
    }
    if typed.isNull { return ShownValue(.null, text: context.displayStringForNil) }
    return ShownValue(typed, text: ValueText.text(of: typed, context, scope.environment))
  }

  /// The value ``shown(_:in:)`` gives a related object (its key), or nil's: what a list's
  /// to-one cell keeps beside the title its component shows, with no title asked again.
  static func value(of object: DatabaseObject?) -> DatabaseValue {
    object.map(titleValue) ?? .null
  }

  private static func titleValue(_ object: DatabaseObject) -> DatabaseValue {
    let key = object.primaryKeyValues
    return key.count == 1 ? key[0] : .array(key.map(\.description))
  }
}

/// A property row: the context's `displayNameForProperty` and the context's `component`
/// beside it (or above it, or the value alone).
public struct PropertyRow: PrimitiveView {
  let style: RowStyle
  let content: any D2SView

  /// A row of `style` showing `content` (by default, the property's `component`).
  public init(style: RowStyle = .nameValue, content: any D2SView = ComponentView(\.component)) {
    self.style = style
    self.content = content
  }

  /// The row, its label from `displayNameForProperty` and its content resolved in `scope`.
  public func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    return .row(
      PropertyRowNode(
        key: context.propertyKey, label: context.displayNameForProperty,
        labelWidth: scope.environment.labelWidth,
        style: style, content: try content.resolve(in: scope)))
  }
}

/// An edit field for the context's property: its value, whether it changed, why it is invalid.
public struct EditField: PrimitiveView {
  let invalid: String?
  let choose: PageAction?
  let changed: Bool?

  /// A field; `changed` and `invalid` are worked out from the edited object when nil;
  /// `choose` offers a list to choose a to-one's destination from.
  public init(changed: Bool? = nil, invalid: String? = nil, choose: PageAction? = nil) {
    self.changed = changed
    self.invalid = invalid
    self.choose = choose
  }

  /// The field for the property in `scope`, with its edit state.
  public func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    let shown = FormattedValue.shown(context.propertyValue, in: scope)
    // A to-one into an entity the user may not reach offers no list to choose from.
    var choose = choose
    if case .choose(let key) = choose,
      let destination = context.entity?.relationship(named: key)?.destinationName,
      !context.isEntityReachable(destination)
    {
      choose = nil
    }
    return .editField(
      EditFieldNode(
        value: shown, changed: changed ?? EditState.isChanged(context),
        invalid: invalid ?? EditState.invalidReason(context), choose: choose))
  }
}

/// The component a key of the context names (`\.component`, `\.rowComponent`, `\.page`),
/// from the context's look; nothing when the key names none. With `debug = true`, a property
/// component is tagged (`[DS]`).
public struct ComponentView: PrimitiveView {
  let keyPath: KeyPath<RuleContext, ComponentName?> & Sendable

  /// The component `keyPath` names.
  public init(_ keyPath: KeyPath<RuleContext, ComponentName?> & Sendable) { self.keyPath = keyPath }

  /// The view of the component the context names, resolved in `scope`.
  public func node(in scope: ViewScope) throws -> ViewNode {
    guard let name = scope.context[keyPath: keyPath] else { return .empty }
    let view = try scope.environment.looks.view(name, look: scope.context.look)
    guard keyPath == \RuleContext.component, scope.context.debug else {
      return try view.resolve(in: scope)
    }
    let tag = "[\(name.debugTag)] "
    var tagged = scope  // the tag takes room from wrapped values
    tagged.environment.labelWidth += TextWidth.of(tag)
    return .tagged(tag, try view.resolve(in: tagged))
  }
}

/// A table: columns and rows, with a footer that follows the rows.
public struct Table: PrimitiveView {
  let node: TableNode
  /// A table of `columns` whose rows come from `rows`.
  public init(columns: [TableColumn], rows: RowSource, summary: TableSummary = .none) {
    node = TableNode(columns: columns, rows: rows, summary: summary)
  }
  /// The table as a view tree node.
  public func node(in scope: ViewScope) throws -> ViewNode { .table(node) }
}
