import Foundation

/// Reading values by name: what qualifiers and key-path rule values use to look into the
/// context, model objects and database objects.
public protocol KeyValueCoding {
  /// The value of the property named `key`, or nil when there is none.
  func value(forKey key: String) -> Any?
  /// The value at a dotted key path (`address.city.country`). The default walks
  /// ``KVC/value(forKeyPath:of:)`` from `self`.
  func value(forKeyPath keyPath: String) -> Any?
}

extension KeyValueCoding {
  public func value(forKeyPath keyPath: String) -> Any? {
    KVC.value(
      forKeyPath: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init),
      of: self)
  }
}

/// A value that compares by a stand-in in qualifiers: a model entity compares equal to its
/// name (`entity = 'Film'`).
public protocol QualifierComparable {
  /// The value used for comparisons.
  var qualifierComparisonValue: Any? { get }
}

/// Key-value coding over any value: ``KeyValueCoding`` adopters, dictionaries, arrays
/// (`@count`, or the key mapped over the elements) and optionals.
public enum KVC {
  /// The value for `key` of `object`.
  public static func value(forKey key: String, of object: Any?) -> Any? {
    guard let object = unwrap(object) else { return nil }
    if let kvc = DeclaredConformances.keyValueCoding(object) { return kvc.value(forKey: key) }
    if let dictionary = object as? [String: Any] {
      if key == "@count" { return dictionary.count }
      return unwrap(dictionary[key] as Any?)
    }
    if let array = object as? [Any] {
      if key == "@count" { return array.count }
      return array.map { value(forKey: key, of: $0) }
    }
    if key == "@count", let string = object as? String { return string.count }
    return nil
  }

  /// The value at the key path `components` from `object`; nil as soon as a step is nil.
  public static func value<C: Collection<String>>(forKeyPath components: C, of object: Any?) -> Any?
  {
    var current: Any? = object
    var first = true
    for component in components {
      // The first step asks the adopter itself, so its own value(forKey:) decides.
      if first, let object = current, let kvc = DeclaredConformances.keyValueCoding(object) {
        current = unwrap(kvc.value(forKey: component))
      } else {
        current = value(forKey: component, of: current)
      }
      first = false
      if current == nil { return nil }
    }
    return current
  }

  /// The value at the key path `components` from `root`, whose own `value(forKey:)` answers
  /// the first step (as ``value(forKeyPath:of:)`` does, without a runtime cast to find out
  /// that `root` adopts ``KeyValueCoding``); nil as soon as a step is nil.
  public static func value(forKeyPath components: [String], from root: any KeyValueCoding)
    -> Any?
  {
    guard let first = components.first else { return root }
    var current = unwrap(root.value(forKey: first))
    for component in components.dropFirst() {
      if current == nil { return nil }
      current = value(forKey: component, of: current)
    }
    return current
  }

  /// `value` with any number of Optional layers removed; nil for `.none`.
  public static func unwrap(_ value: Any?) -> Any? {
    guard let value else { return nil }
    // Plain values skip the protocol cast (a conformance lookup) on this hot path.
    if isPlainValue(value) { return value }
    // Known by type first: a failed protocol cast is slow every time.
    let type = Swift.type(of: value)
    if type == AnySendableValue.self { return (value as? AnySendableValue)?.value }
    guard TypeTraits.metadataKind(type) == TypeTraits.optionalMetadataKind else { return value }
    // An Optional cast to `Any?` is unwrapped by the runtime's Optional-to-Optional cast; a
    // cast to `AnyOptionalBox` would search the conformance tables for each Optional type
    // (and for its wrapped type) the first time.
    guard let wrapped = cast(value, to: Any?.self) else { return value }
    return unwrap(wrapped)
  }

  /// `value as? T`, in a generic context: for `T` = `Any?` the compiler would otherwise call
  /// the cast certain and warn.
  @inline(__always)
  private static func cast<T>(_ value: Any, to type: T.Type) -> T? { value as? T }

  /// Whether `value` is an `Array` of any element type, by its type's nominal descriptor
  /// (no protocol cast).
  public static func isArray(_ value: Any) -> Bool {
    TypeTraits.isArray(Swift.type(of: value))
  }

  /// Whether `value` is of a common concrete type that is neither optional nor model-like:
  /// a metadata comparison instead of protocol casts.
  @inline(__always)
  public static func isPlainValue(_ value: Any) -> Bool {
    let type = Swift.type(of: value)
    return type == String.self || type == Int.self || type == Bool.self || type == Double.self
      || type == Decimal.self || type == Int64.self || type == Int32.self || type == Date.self
  }
}

/// A value that may hold another: `Optional` and ``AnySendableValue``, whose `wrappedAny` reads
/// it. `KVC.unwrap` sees through both by their types, not through this protocol (asking the
/// runtime whether a type adopts a protocol searches every conformance table the first time):
/// another type adopting it is not seen through.
public protocol AnyOptionalBox {
  /// The value held, or nil.
  var wrappedAny: Any? { get }
}

extension Optional: AnyOptionalBox {
  public var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Any value carried where a `Sendable` one is required (a key of "any value" type such as
/// `propertyValue`); key-value coding and comparisons see through it.
public struct AnySendableValue: @unchecked Sendable, AnyOptionalBox {
  public let value: Any?
  public init(_ value: Any?) { self.value = KVC.unwrap(value) }
  public var wrappedAny: Any? { value }
}
