/// A typed key of the dynamic environment: the key is a type, its value type is that of
/// `defaultValue`.
///
/// A key of your own is a type, an accessor on `RuleContext` (with a setter, for
/// `.environment(\.badge, …)` and the Swift rule DSL) and a name that rule text uses,
/// exposed by a plugin:
///
/// ```swift
/// enum BadgeKey: DynamicEnvironmentKey {
///   static var defaultValue: String { "" }
///   static let exposedName: String? = "badge"
/// }
/// extension RuleContext {
///   var badge: String {
///     get { self[BadgeKey.self] }
///     set { self[BadgeKey.self] = newValue }
///   }
/// }
/// // in the plugin: try registry.expose(BadgeKey.self), under its exposedName
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
  /// Keys whose set values follow from this key's (a database's model, set beside it by a
  /// typed setter as a shortcut): setting or removing this key by name removes them, so that
  /// the rules work them out anew and never answer from the value before.
  static var dependentKeys: [any DynamicEnvironmentKey.Type] { get }
}

extension DynamicEnvironmentKey {
  /// No usual name: Swift rules name the key once attached to an engine.
  public static var exposedName: String? { nil }
  /// No key follows from this one.
  public static var dependentKeys: [any DynamicEnvironmentKey.Type] { [] }
}

/// The identity of a key type, used as the storage index.
@usableFromInline
func keyID<K: DynamicEnvironmentKey>(_ key: K.Type) -> ObjectIdentifier {
  ObjectIdentifier(key)
}
