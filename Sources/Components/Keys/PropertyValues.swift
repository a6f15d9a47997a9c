import D2SModel
import EnvKeys
import Foundation

/// Values as `propertyValue` holds them: plain Swift values (`Int`, `String`, `Date`, …) and
/// database objects as they are, so that a component can write `value as? Int`; anything else
/// boxed.
enum PropertyValues {
  /// An attribute's `value` as ``sendable(_:)`` makes it of `value.anyValue`, without the
  /// round trip through `Any` and its casts, for the kinds that round trip to themselves;
  /// nil for the others (arrays, lists, verbatim text, bytes not UTF-8), which go that way.
  static func sendable(plain value: DatabaseValue) -> (any Sendable)?? {
    switch value {
    case .null, .int, .string, .double, .decimal, .bool, .date, .data: .some(value.sendableValue)
    case .array, .list, .verbatim, .textBytes: nil
    }
  }

  /// `value` (unwrapped from optionals and boxes) as a `Sendable` value.
  static func sendable(_ value: Any?) -> (any Sendable)? {
    let unwrapped = KVC.unwrap(value)
    // A related object known by its type first: each cast below that fails for a class
    // instance asks Foundation's bridging whether it boxes a value (about 200 instructions),
    // eight of them before its case.
    if let unwrapped, Swift.type(of: unwrapped) == DatabaseObject.self {
      return unwrapped as? DatabaseObject
    }
    return switch unwrapped {
    case nil: nil
    case let v as Int: v
    case let v as String: v
    case let v as Double: v
    case let v as Decimal: v
    case let v as Bool: v
    case let v as Date: v
    case let v as Data: v
    case let v as [String]: v
    case let v as DatabaseObject: v
    case let v as [DatabaseObject]: v
    case let v?: AnySendableValue(v)
    }
  }
}
