/// What the rule system asks of a value's dynamic type, answered without protocol casts where
/// the type's metadata answers, and otherwise once per type.
///
/// Casting `Any` to a protocol searches the runtime's conformance tables the first time a type
/// is asked about, and with Foundation loaded one failed search runs to hundreds of thousands
/// of instructions. Start-up asks about a handful of types, each several times; these answers
/// made `d2s-repl -c entities` spend a fifth of its instructions in that search.
enum TypeTraits {
  /// How values of one type are fingerprinted for rule caches.
  enum Kind: Sendable {
    case string, int, bool, optional
    /// A ``RuleCacheFingerprinting`` object.
    case object
    case hashable, uncacheable
  }

  private static let kinds = KindTable()

  /// Records the kind of `type` without asking the runtime.
  static func declare(_ type: Any.Type, _ kind: Kind) {
    kinds.record(ObjectIdentifier(type), kind)
  }

  /// The kind of `value`'s dynamic type.
  static func kind(of value: Any) -> Kind {
    let type = Swift.type(of: value)
    if type == String.self { return .string }
    if type == Int.self { return .int }
    if type == Bool.self { return .bool }
    if isOptional(value) { return .optional }
    let metadata = metadataKind(type)
    let id = ObjectIdentifier(type)
    if let kind = kinds.kind(id) { return kind }
    let kind: Kind =
      if (metadata == 0 || metadata > lastEnumeratedMetadataKind)
        && DeclaredConformances.isFingerprinting(value) ?? (value is any RuleCacheFingerprinting)
      {
        .object
      } else {
        value is AnyHashable ? .hashable : .uncacheable
      }
    kinds.record(id, kind)
    return kind
  }

  /// Whether `value` is an ``AnyOptionalBox``: an Optional (known by its type's metadata) or
  /// ``AnySendableValue``, the two adopters, known by type without asking the runtime, whose
  /// first answer for each type is a search of every conformance table.
  static func isOptional(_ value: Any) -> Bool {
    isOptionalType(Swift.type(of: value))
  }

  /// Whether `type` is an Optional or ``AnySendableValue`` (see ``isOptional(_:)``).
  static func isOptionalType(_ type: Any.Type) -> Bool {
    metadataKind(type) == optionalMetadataKind || type == AnySendableValue.self
  }

  /// Whether `type` is `Array<Element>` for some element: struct metadata (kind 0x200) whose
  /// nominal type descriptor (the word after the kind) is Array's.
  static func isArray(_ type: Any.Type) -> Bool {
    guard metadataKind(type) == 0x200 else { return false }
    return descriptor(of: type) == arrayDescriptor
  }

  private static let arrayDescriptor = descriptor(of: [Int].self)

  private static func descriptor(of type: Any.Type) -> UInt {
    unsafeBitCast(type, to: UnsafePointer<UInt>.self)[1]
  }

  /// The kind word of a type's metadata, at offset 0 (Swift's stable ABI, TypeMetadata.rst):
  /// 0x200 a struct, 0x201 an enum, 0x202 an Optional; 0 a Swift class on Linux, and a value
  /// above 0x7FF a class's isa pointer where Objective-C interoperates.
  @inline(__always)
  static func metadataKind(_ type: Any.Type) -> UInt {
    unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
  }

  static let optionalMetadataKind: UInt = 0x202
  static let lastEnumeratedMetadataKind: UInt = 0x7FF
}
