/// A value whose child scopes are copies of it with one value changed, as rule contexts,
/// environments and dependencies are: the parent and its other children never see the change.
public protocol ChildScoping {}

extension ChildScoping {
  /// A child scope with the property at `keyPath` set to `value`: `context.with(\.task, "edit")`.
  @inlinable
  public func with<V>(_ keyPath: WritableKeyPath<Self, V>, _ value: V) -> Self {
    var child = self
    child[keyPath: keyPath] = value
    return child
  }
}

/// A scope of environment values read and set by key type: ``DynamicEnvironmentValues`` and the
/// rule context.
public protocol DynamicEnvironmentScoping: ChildScoping {
  /// The value of `key` in this scope.
  subscript<K: DynamicEnvironmentKey>(key: K.Type) -> K.Value { get set }
}

extension DynamicEnvironmentScoping {
  /// A child scope with `key` set to `value`.
  @inlinable
  public func with<K: DynamicEnvironmentKey>(_ key: K.Type, _ value: K.Value) -> Self {
    var child = self
    child[key] = value
    return child
  }
}
