import EnvKeys
import Foundation

/// A value as it crosses between Swift and a database: one enum for every adaptor, with typed
/// accessors.
public enum DatabaseValue: Hashable, Sendable, CustomStringConvertible {
  case null
  case int(Int)
  case double(Double)
  case decimal(Decimal)
  case string(String)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([String])

  /// The value as plain Swift (`nil`, `Int`, `Double`, `Decimal`, `String`, `Bool`, `Date`,
  /// `Data`, `[String]`), as key-value coding and rules see it.
  public var anyValue: Any? { sendableValue.map { $0 as Any } }

  /// ``anyValue`` as a `Sendable` value (what `propertyValue` holds, so that a component's
  /// `value as? Int` works).
  public var sendableValue: (any Sendable)? {
    switch self {
    case .null: nil
    case .int(let v): v
    case .double(let v): v
    case .decimal(let v): v
    case .string(let v): v
    case .bool(let v): v
    case .date(let v): v
    case .data(let v): v
    case .array(let v): v
    }
  }

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  public var intValue: Int? {
    switch self {
    case .int(let v): v
    case .bool(let b): b ? 1 : 0
    case .string(let s): Int(s)
    default: nil
    }
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// A value from plain Swift (the inverse of ``anyValue``), or nil when the type has no
  /// database form.
  public init?(any value: Any?) {
    guard let value = KVC.unwrap(value) else {
      self = .null
      return
    }
    switch value {
    case let v as DatabaseValue: self = v
    case let v as String: self = .string(v)
    case let v as Bool: self = .bool(v)
    case let v as Int: self = .int(v)
    case let v as Decimal: self = .decimal(v)
    case let v as Double: self = .double(v)
    case let v as Date: self = .date(v)
    case let v as Data: self = .data(v)
    case let v as [String]: self = .array(v)
    case let v as any BinaryInteger:
      guard let i = Int(exactly: v) else { return nil }
      self = .int(i)
    default: return nil
    }
  }

  /// A short form for messages and logs (data as `<n bytes>`).
  public var description: String {
    switch self {
    case .null: "NULL"
    case .int(let v): String(v)
    case .double(let v): String(v)
    case .decimal(let v): v.description
    case .string(let v): Literal.quote(v)
    case .bool(let v): v ? "true" : "false"
    case .date(let v): Literal.quote(ISODateText.format(v))
    case .data(let v): "<\(v.count) bytes>"
    case .array(let v): "(" + v.map(Literal.quote).joined(separator: ", ") + ")"
    }
  }
}
