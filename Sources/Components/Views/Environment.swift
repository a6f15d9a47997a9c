import RuleCore

/// Where a view is being resolved: its rule context and the render environment.
public struct ViewScope: Sendable {
  /// The rule context of the place the view is shown.
  public var context: RuleContext
  /// Looks, formatters, width and the list request.
  public var environment: RenderEnvironment

  /// A scope of `context` in `environment`.
  public init(context: RuleContext, environment: RenderEnvironment) {
    self.context = context
    self.environment = environment
  }

  /// The scope whose view `body` is being evaluated, for ``Environment``.
  @TaskLocal public static var current: ViewScope?

  /// The same scope with `keyPath` set to `value` in its context.
  public func with<V>(_ keyPath: WritableKeyPath<RuleContext, V>, _ value: V) -> ViewScope {
    var scope = self
    scope.context[keyPath: keyPath] = value
    return scope
  }
}

/// Reads a key of the rule context in a view's `body`, as SwiftUI's `@Environment` does:
/// `@Environment(\.propertyValue) var value`. The value is that of the place the view is shown,
/// set explicitly there, by a parent view's ``D2SView/environment(_:_:)``, or by rules.
@propertyWrapper
public struct Environment<Value>: Sendable {
  private let keyPath: KeyPath<RuleContext, Value> & Sendable

  /// Reads `keyPath` of the rule context.
  public init(_ keyPath: KeyPath<RuleContext, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// The value in the scope being rendered (outside rendering: in an empty context).
  public var wrappedValue: Value {
    (ViewScope.current?.context ?? RuleContext())[keyPath: keyPath]
  }
}

/// A view whose content sees a key set to a value; its parent and siblings do not.
public struct EnvironmentScoped<Content: D2SView, Value: Sendable>: PrimitiveView {
  let content: Content
  let keyPath: WritableKeyPath<RuleContext, Value> & Sendable
  let value: Value

  public func node(in scope: ViewScope) throws -> ViewNode {
    try content.resolve(in: scope.with(keyPath, value))
  }
}

extension D2SView {
  /// This view with `keyPath` set to `value` for it and its children, like SwiftUI's
  /// `.environment(\.key, value)`: `ComponentView(\.rowComponent).environment(\.propertyKey, "title")`.
  public func environment<V: Sendable>(
    _ keyPath: WritableKeyPath<RuleContext, V> & Sendable, _ value: V
  ) -> EnvironmentScoped<Self, V> {
    EnvironmentScoped(content: self, keyPath: keyPath, value: value)
  }
}
