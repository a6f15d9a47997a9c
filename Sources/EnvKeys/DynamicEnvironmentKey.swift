/// A typed key of the dynamic environment: the key is a type, its value type is that of
/// `defaultValue`.
///
/// ```swift
/// enum TaskKey: DynamicEnvironmentKey {
///   static var defaultValue: String { "query" }
/// }
/// extension DynamicEnvironmentValues {
///   var task: String {
///     get { self[TaskKey.self] }
///     set { self[TaskKey.self] = newValue }
///   }
/// }
/// ```
/// A key without a meaningful default has an `Optional` value type.
public protocol DynamicEnvironmentKey: SendableMetatype {
  /// The type of the values stored under this key.
  associatedtype Value: Sendable
  /// The value read when nothing is set for the key.
  static var defaultValue: Value { get }
  /// The name the key is usually exposed under (`"task"`), or nil. Registries decide the
  /// names rules use; this one only lets rules written in Swift print before they meet a
  /// registry.
  static var exposedName: String? { get }
}

extension DynamicEnvironmentKey {
  /// No usual name: Swift rules name the key once attached to an engine.
  public static var exposedName: String? { nil }
}

/// The identity of a key type, used as the storage index.
@usableFromInline
func keyID<K: DynamicEnvironmentKey>(_ key: K.Type) -> ObjectIdentifier {
  ObjectIdentifier(key)
}
