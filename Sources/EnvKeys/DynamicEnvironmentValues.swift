/// The scoped, typed value store.
///
/// It is a value type: a child scope is a copy of its parent (`with(_:_:)`, or `var child =
/// parent`), sees every value of the parent, and whatever it sets never reaches the parent or
/// a sibling. Grandchildren see the nearest value.
///
/// Storage is a small array with a 64-bit presence mask rather than a dictionary: a scope holds
/// a handful of explicit values, and most reads ask for a key that is *not* set (then rules
/// answer), which the mask settles without hashing.
public struct DynamicEnvironmentValues: Sendable, DynamicEnvironmentScoping {
  /// A stored value with the fingerprint taken when it was set (a class: copies of the
  /// store and reads of the fingerprint are one reference each).
  @usableFromInline
  final class Stored: Sendable {
    @usableFromInline let id: ObjectIdentifier
    @usableFromInline let value: any Sendable
    /// The value as a mutable object, whose fingerprint is taken at each read (cast once
    /// here: a failing cast of `Any` costs far more than a stored reference). It is `value`
    /// itself, which is Sendable.
    @usableFromInline nonisolated(unsafe) let dynamic: (any RuleCacheFingerprinting)?
    @usableFromInline let fingerprint: CacheFingerprint

    @usableFromInline
    init(id: ObjectIdentifier, value: any Sendable) {
      self.id = id
      self.value = value
      // Unwrapped and classified once (an Optional's unwrapping is a runtime cast): the
      // fingerprint of an Optional is that of what it wraps, or of nil.
      guard let unwrapped = KVC.unwrap(value) else {
        self.dynamic = nil
        self.fingerprint = .null
        return
      }
      let kind = TypeTraits.kind(of: unwrapped)
      self.dynamic = kind == .object ? DeclaredConformances.fingerprinting(unwrapped) : nil
      // An object is fingerprinted at each read (`dynamic`), or never.
      self.fingerprint =
        kind == .object ? .uncacheable : CacheFingerprint(of: unwrapped, kind: kind)
    }
  }

  @usableFromInline var entries: [Stored] = []
  /// Bit `maskBit(id)` is set for every stored key.
  @usableFromInline var mask: UInt64 = 0

  /// An empty store: every key reads its default.
  public init() {}

  @inlinable
  static func maskBit(_ id: ObjectIdentifier) -> UInt64 {
    // Key types' metadata addresses are aligned; mix the bits above the alignment.
    let bits = UInt(bitPattern: unsafeBitCast(id, to: Int.self))
    return 1 &<< UInt64((bits >> 4 ^ bits >> 10) & 63)
  }

  @inlinable
  func stored(_ id: ObjectIdentifier) -> Stored? {
    guard mask & Self.maskBit(id) != 0 else { return nil }
    for entry in entries where entry.id == id { return entry }
    return nil
  }

  @usableFromInline
  mutating func store(_ value: (any Sendable)?, for id: ObjectIdentifier) {
    let index = entries.firstIndex { $0.id == id }
    switch (index, value) {
    case (let index?, let value?): entries[index] = Stored(id: id, value: value)
    case (nil, let value?):
      entries.append(Stored(id: id, value: value))
      mask |= Self.maskBit(id)
    case (let index?, nil):
      entries.remove(at: index)
      mask = entries.reduce(0) { $0 | Self.maskBit($1.id) }
    case (nil, nil): break
    }
  }

  /// The value of `key`: the explicit one, else the key's default.
  @inlinable
  public subscript<K: DynamicEnvironmentKey>(key: K.Type) -> K.Value {
    get { explicitValue(for: key) ?? K.defaultValue }
    set { store(newValue, for: keyID(key)) }
  }

  /// The explicitly set value of `key`, or nil when none is set in this scope or above.
  @inlinable
  public func explicitValue<K: DynamicEnvironmentKey>(for key: K.Type) -> K.Value? {
    guard let stored = stored(keyID(key)) else { return nil }
    return stored.value as? K.Value
  }

  /// Whether `key` has an explicit value.
  public func contains<K: DynamicEnvironmentKey>(_ key: K.Type) -> Bool {
    stored(keyID(key)) != nil
  }

  /// Removes the explicit value of `key`, so reads fall back to rules and the default.
  public mutating func removeValue<K: DynamicEnvironmentKey>(for key: K.Type) {
    store(nil, for: keyID(key))
  }

  // MARK: - Type-erased access for registries and rule engines

  /// Whether a value is set for the key with identity `id`.
  public func containsValue(forKeyID id: ObjectIdentifier) -> Bool { stored(id) != nil }

  /// The explicit value for the key with identity `id`.
  @inlinable
  public func explicitValue(forKeyID id: ObjectIdentifier) -> (any Sendable)? {
    stored(id)?.value
  }

  /// Sets or (with nil) removes the explicit value for the key with identity `id`.
  /// The caller guarantees that `value` has the key's value type.
  public mutating func setValue(_ value: (any Sendable)?, forKeyID id: ObjectIdentifier) {
    store(value, for: id)
  }

  /// The fingerprint of the explicit value for the key `id` (`.absent` when unset).
  @inlinable
  public func fingerprint(forKeyID id: ObjectIdentifier) -> CacheFingerprint {
    guard let stored = stored(id) else { return .absent }
    if let dynamic = stored.dynamic { return CacheFingerprint(of: dynamic) }
    return stored.fingerprint
  }

  /// The identities of every explicitly set key.
  public var keyIDs: [ObjectIdentifier] { entries.map(\.id) }
}
