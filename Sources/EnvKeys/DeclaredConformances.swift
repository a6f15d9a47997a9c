import Synchronization

/// Types declared ahead to adopt ``KeyValueCoding`` (and ``RuleCacheFingerprinting``), so that
/// casting a value of one to those protocols asks no search of the runtime's conformance
/// tables: the first cast of each type to a protocol searches every table of the process
/// (some 200,000 instructions each at start-up, for a model entity and a database). A value
/// of a declared type is cast to the type itself, a comparison of metadata.
///
/// Declarations are kept for the process, at most ``capacity`` types; reading them takes no
/// lock (entries are written once, then published by an atomic count).
public enum DeclaredConformances {
  /// One declared type: its key-value coding and fingerprinting as existential metatypes,
  /// which carry their conformances.
  struct Entry {
    let id: ObjectIdentifier
    let keyValueCoding: any KeyValueCoding.Type
    let fingerprinting: (any RuleCacheFingerprinting.Type)?
  }

  /// The most types declared; later ones are cast as any other.
  public static let capacity = 16
  nonisolated(unsafe) private static let entries = UnsafeMutablePointer<Entry>.allocate(
    capacity: capacity)
  private static let published = Atomic<Int>(0)
  private static let writing = Mutex<Void>(())

  /// Declares that values of `type` adopt ``KeyValueCoding``.
  public static func declare<T: KeyValueCoding>(_ type: T.Type) {
    add(Entry(id: ObjectIdentifier(type), keyValueCoding: type, fingerprinting: nil))
  }

  /// Declares that values of `type` adopt ``KeyValueCoding`` and ``RuleCacheFingerprinting``.
  public static func declare<T: KeyValueCoding & RuleCacheFingerprinting>(_ type: T.Type) {
    add(Entry(id: ObjectIdentifier(type), keyValueCoding: type, fingerprinting: type))
  }

  private static func add(_ entry: Entry) {
    writing.withLock { _ in
      let count = published.load(ordering: .relaxed)
      guard count < capacity, self.entry(for: entry.id) == nil else { return }
      (entries + count).initialize(to: entry)
      published.store(count + 1, ordering: .releasing)
    }
  }

  /// The declaration of the type `id`, if any.
  @inline(__always)
  static func entry(for id: ObjectIdentifier) -> Entry? {
    let count = published.load(ordering: .acquiring)
    for index in 0..<count where entries[index].id == id { return entries[index] }
    return nil
  }

  /// The declared types, in the order declared.
  static var declaredTypes: [ObjectIdentifier] {
    (0..<published.load(ordering: .acquiring)).map { entries[$0].id }
  }

  /// `value` as ``KeyValueCoding``: through its declaration when its type has one, else by a
  /// runtime cast.
  public static func keyValueCoding(_ value: Any) -> (any KeyValueCoding)? {
    guard let entry = entry(for: ObjectIdentifier(Swift.type(of: value))) else {
      return value as? any KeyValueCoding
    }
    return cast(value, to: entry.keyValueCoding)
  }

  /// `value` as ``RuleCacheFingerprinting``: through its declaration when its type has one,
  /// else by a runtime cast.
  public static func fingerprinting(_ value: Any) -> (any RuleCacheFingerprinting)? {
    guard let entry = entry(for: ObjectIdentifier(Swift.type(of: value))) else {
      return value as? any RuleCacheFingerprinting
    }
    return entry.fingerprinting.flatMap { cast(value, to: $0) }
  }

  /// Whether `value`'s type is declared to adopt ``RuleCacheFingerprinting`` (nil: not
  /// declared either way).
  static func isFingerprinting(_ value: Any) -> Bool? {
    entry(for: ObjectIdentifier(Swift.type(of: value))).map { $0.fingerprinting != nil }
  }

  /// `value as? T`, with `T` opened from the declared metatype: a cast to a concrete type.
  private static func cast<T: KeyValueCoding>(_ value: Any, to type: T.Type) -> (
    any KeyValueCoding
  )? {
    value as? T
  }

  private static func cast<T: RuleCacheFingerprinting>(_ value: Any, to type: T.Type) -> (
    any RuleCacheFingerprinting
  )? {
    value as? T
  }
}
