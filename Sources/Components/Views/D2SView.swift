import EnvKeys
import RuleCore

/// A view value, as in SwiftUI and Direct to SwiftUI: a component's `body` composes smaller
/// views, down to the primitives that renderers know (``Text``, ``FormattedValue``,
/// ``PropertyRow``, ``Table``, ``Action``, ``EditField``, ``Message``, stacks).
///
/// Rules and looks choose components by name; a component reads what it shows from the rule
/// context through ``Environment``:
/// ```swift
/// struct DisplayBool: D2SView {
///   @Environment(\.propertyValue) var value
///   var body: some D2SView { Text((value as? Bool) == true ? "✓" : "✗") }
/// }
/// ```
///
/// A component's name is its type's (``componentName``): looks register it under that name,
/// rule text names it so, and the Swift rule DSL assigns the view itself
/// (`\.component <= DisplayStars()`).
public protocol D2SView: Sendable, RuleValueConvertible {
  /// The name rules and looks know the component by: the type's name (`DisplayStars`),
  /// unless the type declares another (`static let componentName = "Inspect"`, a look's
  /// own inspect page).
  static var componentName: String { get }
  /// The type of the view's content.
  associatedtype Body: D2SView
  /// The view's content, evaluated in the rule context of the place it is shown.
  @D2SViewBuilder var body: Body { get }
  /// The view as a node tree in `scope`. Implemented for you: through `body`, or for a
  /// ``PrimitiveView`` by its node (chosen when the type conforms, with no cast at run time).
  func resolve(in scope: ViewScope) throws -> ViewNode
}

/// A view that renderers know directly: it becomes a ``ViewNode`` in a scope, instead of
/// having a body. Library authors rarely need one; compose ``D2SView``s instead.
public protocol PrimitiveView: D2SView where Body == Never {
  /// The node for this view in `scope`.
  func node(in scope: ViewScope) throws -> ViewNode
}

extension PrimitiveView {
  /// Primitives have no body: renderers ask them for their node instead.
  public var body: Never {
    // Unreachable: `resolve(in:)` asks a primitive for its node and never for its body.
    return preconditionFailure("\(Self.self) is a primitive view and has no body")
  }
}

extension Never: D2SView {
  /// Never has no body.
  public var body: Never {
    // Unreachable: there is no value of Never to ask.
    return preconditionFailure("Never has no body")
  }
}

extension D2SView {
  /// The type's name.
  public static var componentName: String { String(describing: Self.self) }

  /// The component's name, as the Swift rule DSL assigns it (`\.component <= DisplayStars()`
  /// is `component = 'DisplayStars'`).
  public var ruleLiteral: Literal { .string(Self.componentName) }

  /// The view as a node tree in `scope`: its body's, evaluated with the scope's context
  /// reachable through ``Environment``.
  public func resolve(in scope: ViewScope) throws -> ViewNode {
    let content = ViewScope.$current.withValue(scope) { body }
    return try content.resolve(in: scope)
  }
}

extension PrimitiveView {
  /// A primitive's node, directly.
  public func resolve(in scope: ViewScope) throws -> ViewNode { try node(in: scope) }
}
