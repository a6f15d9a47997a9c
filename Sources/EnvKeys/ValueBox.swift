/// A value behind one reference, so answers can be shared and copied cheaply.
public class AnyValueBox: @unchecked Sendable {
  /// The value.
  public let value: any Sendable
  public init(_ value: any Sendable) { self.value = value }
}

/// A value of a statically known type: a typed reader gets it back with a class cast instead
/// of an existential cast.
public final class ValueBox<Value: Sendable>: AnyValueBox, @unchecked Sendable {
  /// The value, typed.
  public let typed: Value
  public init(typed: Value) {
    self.typed = typed
    super.init(typed)
  }
}
