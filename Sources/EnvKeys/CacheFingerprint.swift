import Synchronization

/// What a rule cache compares to decide that a value is still "the same value".
///
/// Strings, integers and booleans compare directly (the common, hot cases); other hashable
/// values through `AnyHashable`. A mutable object (a database object) adopts
/// ``RuleCacheFingerprinting`` and compares by identity and change counter, so an answer
/// computed from its properties is not reused after it changes.
///
/// A plain struct rather than an enum with payloads: cache lookups copy and compare these on
/// every hit, and a struct of words, a string and one reference copies cheaply.
public struct CacheFingerprint: Hashable, Sendable {
  @usableFromInline enum Tag: UInt8, Sendable {
    case absent, string, int, bool, object, other, uncacheable, null
  }
  @usableFromInline let tag: Tag
  @usableFromInline let number: Int
  @usableFromInline let version: Int
  @usableFromInline let text: String
  @usableFromInline let box: HashableBox?
  /// Hashed once when the fingerprint is made (usually when a value is set), so cache
  /// lookups hash one word instead of the whole value.
  public let precomputedHash: Int

  init(tag: Tag, number: Int = 0, version: Int = 0, text: String = "", box: HashableBox? = nil) {
    self.tag = tag
    self.number = number
    self.version = version
    self.text = text
    self.box = box
    var hasher = Hasher()
    switch tag {
    case .string: hasher.combine(text)
    case .int, .bool: hasher.combine(number)
    case .object: hasher.combine(number &+ version)
    case .other: if let box { hasher.combine(box.value) }
    case .absent, .uncacheable, .null: hasher.combine(tag.rawValue)
    }
    self.precomputedHash = hasher.finalize()
  }

  /// The key has no explicit value.
  public static let absent = CacheFingerprint(tag: .absent)
  /// The value cannot be fingerprinted: answers that read it are not cached.
  public static let uncacheable = CacheFingerprint(tag: .uncacheable)
  /// nil, of any Optional type.
  static let null = CacheFingerprint(tag: .null)

  /// Whether answers depending on this value may be cached.
  @inlinable
  public var isCacheable: Bool { tag != .uncacheable }

  /// Declares that values of `type` are never fingerprinted (answers computed from them are
  /// not cached), as for any type that is neither hashable nor ``RuleCacheFingerprinting``,
  /// but without the runtime's protocol searches that find this out (hundreds of thousands of
  /// instructions each, at start-up). For a type of which a value is set in every context.
  public static func neverFingerprint(_ type: Any.Type) {
    TypeTraits.declare(type, .uncacheable)
  }

  /// The fingerprint of a mutable object: its identity and change counter.
  public init(of object: any RuleCacheFingerprinting) {
    self.init(tag: .object, number: object.ruleCacheIdentity, version: object.ruleCacheVersion)
  }

  /// The fingerprint of any value (nil, of any Optional type, is one value).
  public init(of value: Any) {
    self.init(of: value, kind: TypeTraits.kind(of: value))
  }

  /// The fingerprint of `value`, whose kind (``TypeTraits/kind(of:)``) is `kind`.
  init(of value: Any, kind: TypeTraits.Kind) {
    // Each value is cast once, to what its type is known to be (see TypeTraits).
    switch kind {
    case .string: self.init(tag: .string, text: value as? String ?? "")
    case .int: self.init(tag: .int, number: value as? Int ?? 0)
    case .bool: self.init(tag: .bool, number: value as? Bool == true ? 1 : 0)
    case .optional:
      guard let wrapped = KVC.unwrap(value) else {
        self.init(tag: .null)
        return
      }
      self.init(of: wrapped)
    case .object:
      guard let object = DeclaredConformances.fingerprinting(value) else {
        self = .uncacheable
        return
      }
      self.init(of: object)
    case .hashable:
      guard let hashable = value as? AnyHashable else {
        self = .uncacheable
        return
      }
      self.init(tag: .other, box: HashableBox(hashable))
    case .uncacheable: self = .uncacheable
    }
  }

  /// Whether two fingerprints say "the same value": their precomputed hashes first, then
  /// every part.
  @inlinable
  public static func == (a: CacheFingerprint, b: CacheFingerprint) -> Bool {
    guard a.precomputedHash == b.precomputedHash, a.tag == b.tag, a.number == b.number,
      a.version == b.version, a.text == b.text
    else { return false }
    switch (a.box, b.box) {
    case (nil, nil): return true
    case (let x?, let y?): return x === y || x.value == y.value
    default: return false
    }
  }

  /// Hashes the hash taken when the fingerprint was made (one word).
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(precomputedHash)
  }
}

/// A hashable value behind one reference.
@usableFromInline
final class HashableBox: @unchecked Sendable {
  @usableFromInline let value: AnyHashable
  init(_ value: AnyHashable) { self.value = value }
}

/// A value whose content can change while its identity stays (a database object).
public protocol RuleCacheFingerprinting: AnyObject {
  /// A number no other object of the process ever has: take one from
  /// ``RuleCacheIdentity/next()`` when the object is made. (Not the object's address: a freed
  /// object's address is reused, and its cached answers must not be.)
  var ruleCacheIdentity: Int { get }
  /// A counter that changes whenever a property that rules may read changes.
  var ruleCacheVersion: Int { get }
}

/// Process-wide unique identities for ``RuleCacheFingerprinting`` objects.
public enum RuleCacheIdentity {
  private static let counter = Atomic<Int>(0)
  /// A new identity.
  public static func next() -> Int { counter.wrappingAdd(1, ordering: .relaxed).newValue }
}
