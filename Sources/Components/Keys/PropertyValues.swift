import D2SModel
import EnvKeys
import Foundation

/// Values as `propertyValue` holds them: plain Swift values (`Int`, `String`, `Date`, …) and
/// database objects as they are, so that a component can write `value as? Int`; anything else
/// boxed.
enum PropertyValues {
  /// `value` (unwrapped from optionals and boxes) as a `Sendable` value.
  static func sendable(_ value: Any?) -> (any Sendable)? {
    switch KVC.unwrap(value) {
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
