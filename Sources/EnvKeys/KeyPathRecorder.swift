/// A type whose values the Swift rule DSL can look into: it makes a placeholder whose
/// computed properties (and dynamic members) report their names to the recorder, so
/// `\.object?.lastName` becomes the rule-text key path `object.lastName`.
///
/// Stored properties need nothing: their names are read from the key path itself.
public protocol KeyPathRecordable {
  /// A value whose property getters call `recorder.recordMember(name)`.
  static func recordingPlaceholder(recorder: KeyPathRecorder) -> Self
}

extension Optional: KeyPathRecordable where Wrapped: KeyPathRecordable {
  /// Some placeholder, so optional chaining goes on into the wrapped value's members.
  public static func recordingPlaceholder(recorder: KeyPathRecorder) -> Wrapped? {
    .some(Wrapped.recordingPlaceholder(recorder: recorder))
  }
}

/// Records what a Swift key path on a context reads, while the rule DSL runs it on a recording
/// context: the first key it reads and the names of the computed members after it.
public final class KeyPathRecorder: @unchecked Sendable {
  /// The first key read: its identity, its Swift type and its usual name.
  public struct FirstKey: Sendable {
    /// The identity of the key type.
    public let id: ObjectIdentifier
    /// The key type's Swift name, for messages about keys no registry exposes.
    public let typeName: String
    /// The key's ``DynamicEnvironmentKey/exposedName``.
    public let exposedName: String?
  }

  /// The first key the key path read, if any.
  public private(set) var first: FirstKey?
  /// The names computed members reported, in order.
  public private(set) var members: [String] = []

  /// An empty recorder.
  public init() {}

  /// Notes `key` as read (only the first key counts).
  @usableFromInline
  func record<K: DynamicEnvironmentKey>(_ key: K.Type) {
    if first == nil {
      first = FirstKey(
        id: ObjectIdentifier(key), typeName: String(reflecting: key), exposedName: K.exposedName)
    }
  }

  /// Called by placeholders' getters with the property's key-value-coding name.
  public func recordMember(_ name: String) { members.append(name) }

  /// The value a recording read of `key` answers: a recording placeholder when the value type
  /// is ``KeyPathRecordable``, else the key's default.
  @usableFromInline
  func placeholder<K: DynamicEnvironmentKey>(for key: K.Type) -> K.Value {
    if let recordable = K.Value.self as? any KeyPathRecordable.Type,
      let placeholder = recordable.recordingPlaceholder(recorder: self) as? K.Value
    {
      return placeholder
    }
    return K.defaultValue
  }

  /// Records the read of `key` and answers its placeholder value.
  @inlinable
  public func read<K: DynamicEnvironmentKey>(_ key: K.Type) -> K.Value {
    record(key)
    return placeholder(for: key)
  }
}
