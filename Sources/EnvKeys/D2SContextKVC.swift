/// The registry of exposed keys: names for typed keys, so rule text, the REPL and key paths
/// (`entity.name`, `object.address.phone`) can reach them.
///
/// Registries are instances (tests build isolated ones); ``shared`` is the process-wide default
/// that the static `expose` calls and the Swift rule DSL use.
///
/// ```swift
/// try D2SContextKVC.expose(TaskKey.self, "task")
/// ```
public final class D2SContextKVC: Sendable {
  private struct State: Sendable {
    // Room for the builtin keys and a plugin's: growing copies every descriptor over again.
    var byName = [String: ExposedKey](minimumCapacity: 128)
    var byID = [ObjectIdentifier: ExposedKey](minimumCapacity: 128)
    var order: [String] = []
  }
  // Read on every rule lookup, written when keys are exposed (at start).
  private let state = ReadMostly(State())

  /// The process-wide default registry.
  public static let shared = D2SContextKVC()

  /// An empty registry.
  public init() {}

  /// Exposes `key` under `name` in the shared registry.
  @discardableResult
  public static func expose<K: DynamicEnvironmentKey>(_ key: K.Type, _ name: String) throws
    -> ExposedKey where K.Value: ContextLiteralConvertible
  {
    try shared.expose(key, name)
  }

  /// Exposes `key` under `name`, which must be the key's own ``DynamicEnvironmentKey/exposedName``
  /// when it has one.
  /// - Throws: ``ExposeError`` when `name` is taken by another key, or the key already has
  ///   another name. Exposing the same key under the same name again is a no-op.
  @discardableResult
  @inlinable
  public func expose<K: DynamicEnvironmentKey>(_ key: K.Type, _ name: String) throws -> ExposedKey
  where K.Value: ContextLiteralConvertible {
    try expose(ExposedKey(key, name: name))
  }

  /// Exposes `key` under the name the key type gives (``DynamicEnvironmentKey/exposedName``):
  /// the name is written once, in the key.
  ///
  /// ```swift
  /// try registry.expose(BadgeKey.self)  // BadgeKey.exposedName = "badge"
  /// ```
  /// - Throws: ``ExposeError`` when the key has no `exposedName`, or as
  ///   ``expose(_:_:)-(K.Type,_)`` does.
  @discardableResult
  @inlinable
  public func expose<K: DynamicEnvironmentKey>(_ key: K.Type) throws -> ExposedKey
  where K.Value: ContextLiteralConvertible {
    try expose(ExposedKey(key))
  }

  /// Registers a prepared descriptor (custom coercion and printing).
  @discardableResult
  public func expose(_ exposed: ExposedKey) throws -> ExposedKey {
    if let usual = exposed.usualName, usual != exposed.name {
      throw ExposeError(
        code: .nameMismatch, name: exposed.name, existingType: usual,
        newType: exposed.valueTypeName)
    }
    guard Literal.isPlainIdentifier(exposed.name) else {
      throw ExposeError(
        code: .invalidName, name: exposed.name, existingType: nil, newType: exposed.valueTypeName)
    }
    return try state.write { state in
      if let existing = state.byName[exposed.name] {
        if existing.id == exposed.id { return existing }
        throw ExposeError(
          code: .nameTaken, name: exposed.name, existingType: existing.valueTypeName,
          newType: exposed.valueTypeName)
      }
      if let existing = state.byID[exposed.id] {
        throw ExposeError(
          code: .keyAlreadyExposed, name: exposed.name, existingType: existing.name,
          newType: exposed.valueTypeName)
      }
      state.byName[exposed.name] = exposed
      state.byID[exposed.id] = exposed
      state.order.append(exposed.name)
      return exposed
    }
  }

  /// The key exposed under `name`.
  public func key(named name: String) -> ExposedKey? {
    state.read { $0.byName[name] }
  }

  /// The exposed descriptor of the key type with identity `id`.
  public func key(forID id: ObjectIdentifier) -> ExposedKey? {
    state.read { $0.byID[id] }
  }

  /// The exposed descriptor of `key`.
  public func key<K: DynamicEnvironmentKey>(for key: K.Type) -> ExposedKey? {
    self.key(forID: ObjectIdentifier(key))
  }

  /// Every exposed key, sorted by name.
  public var allKeys: [ExposedKey] {
    state.read { state in state.order.sorted().compactMap { state.byName[$0] } }
  }

  /// Names close to `name`, for "did you mean" hints (``Suggestions``).
  public func suggestions(for name: String) -> [String] {
    Suggestions.closest(to: name, among: allKeys.map(\.name))
  }
}

/// Exposing a name that is taken by another key, or a key under a second name.
public struct ExposeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public struct Code: Hashable, Sendable {
    let raw: String
    /// The name is already exposed for a different key type.
    public static let nameTaken = Code(raw: "nameTaken")
    /// The key type is already exposed under another name.
    public static let keyAlreadyExposed = Code(raw: "keyAlreadyExposed")
    /// The name is not an identifier (or is a keyword), or the key gives none.
    public static let invalidName = Code(raw: "invalidName")
    /// The name is not the one the key type gives (`exposedName`).
    public static let nameMismatch = Code(raw: "nameMismatch")
  }
  /// What went wrong.
  public var code: Code
  /// The name the key was to be exposed under.
  public var name: String
  /// For `nameTaken`: the existing key's value type; for `keyAlreadyExposed`: its name; for
  /// `nameMismatch`: the name the key type gives.
  public var existingType: String?
  /// The value type of the key being exposed.
  public var newType: String

  /// The error as a sentence.
  public var description: String {
    switch code {
    case .nameTaken:
      "key name '\(name)' is already exposed for another key (of type \(existingType ?? "?")); cannot expose it again for a key of type \(newType)"
    case .keyAlreadyExposed:
      "this key (of type \(newType)) is already exposed as '\(existingType ?? "?")'; cannot expose it again as '\(name)'"
    case .nameMismatch:
      "the key (of type \(newType)) is named '\(existingType ?? "?")' by its exposedName; cannot expose it as '\(name)' (expose it without a name to use its own)"
    case .invalidName where name.isEmpty:
      "the key (of type \(newType)) has no exposedName: give it one, or a name when exposing it"
    default:
      "'\(name)' cannot be a key name: use letters, digits and '_', starting with a letter, and no keyword"
    }
  }
}
