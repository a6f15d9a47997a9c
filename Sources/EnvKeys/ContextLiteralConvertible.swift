import Foundation

/// A value type that rule text and the REPL can write as a literal and that prints back as one.
///
/// The builtin value types conform: `String`, `Bool`, `Int`, `Double`, `Decimal`, `Date`,
/// arrays and `String`-keyed dictionaries of conforming values, and optionals of them.
public protocol ContextLiteralConvertible: Sendable {
  /// The type's name in messages and `keys` listings: `String`, `[String]`, `Bool?`.
  static var contextTypeName: String { get }
  /// The value a literal stands for; throws when the literal does not fit.
  init(contextLiteral literal: Literal) throws(LiteralCoercionError)
  /// The value as a literal.
  var contextLiteral: Literal { get }
  /// The value for a dynamically computed one (a key path's value), or nil if it does not
  /// fit. The default accepts values of exactly this type.
  static func fromContextValue(_ value: Any) -> Self?
}

extension ContextLiteralConvertible {
  public static func fromContextValue(_ value: Any) -> Self? { value as? Self }

  static func mismatch(_ literal: Literal, hint: String? = nil) -> LiteralCoercionError {
    LiteralCoercionError(expectedType: contextTypeName, literal: literal, hint: hint)
  }
}

extension String: ContextLiteralConvertible {
  public static var contextTypeName: String { "String" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let s) = literal else { throw Self.mismatch(literal) }
    self = s
  }
  public var contextLiteral: Literal { .string(self) }
  public static func fromContextValue(_ value: Any) -> String? {
    if let s = value as? String { return s }
    if let s = value as? Substring { return String(s) }
    return nil
  }
}

extension Bool: ContextLiteralConvertible {
  public static var contextTypeName: String { "Bool" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .bool(let b) = literal else { throw Self.mismatch(literal) }
    self = b
  }
  public var contextLiteral: Literal { .bool(self) }
}

extension Int: ContextLiteralConvertible {
  public static var contextTypeName: String { "Int" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    switch literal {
    case .int(let i): self = i
    case .decimal(let d):
      // An exactly integral decimal (`3.0`) is the same value as `3`.
      guard let i = exactInt(d) else { throw Self.mismatch(literal, hint: "not a whole number") }
      self = i
    default: throw Self.mismatch(literal)
    }
  }
  public var contextLiteral: Literal { .int(self) }
  public static func fromContextValue(_ value: Any) -> Int? {
    switch value {
    case let i as Int: i
    case let i as any BinaryInteger: Int(exactly: i)
    case let d as Decimal: exactInt(d)
    default: nil
    }
  }
}

extension Double: ContextLiteralConvertible {
  public static var contextTypeName: String { "Double" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    switch literal {
    case .int(let i): self = Double(i)
    case .decimal(let d): self = NSDecimalNumber(decimal: d).doubleValue
    default: throw Self.mismatch(literal)
    }
  }
  public var contextLiteral: Literal {
    if let d = Decimal(string: "\(self)"), isFinite { return .decimal(d) }
    return .string("\(self)")
  }
  public static func fromContextValue(_ value: Any) -> Double? {
    switch value {
    case let d as Double: d
    case let f as Float: Double(f)
    case let i as any BinaryInteger: Double(i)
    case let d as Decimal: NSDecimalNumber(decimal: d).doubleValue
    default: nil
    }
  }
}

extension Decimal: ContextLiteralConvertible {
  public static var contextTypeName: String { "Decimal" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    switch literal {
    case .int(let i): self = Decimal(i)
    case .decimal(let d): self = d
    default: throw Self.mismatch(literal)
    }
  }
  public var contextLiteral: Literal { .decimal(self) }
  public static func fromContextValue(_ value: Any) -> Decimal? {
    switch value {
    case let d as Decimal: d
    case let i as Int: Decimal(i)
    case let i as any BinaryInteger: Int64(exactly: i).map { Decimal($0) }
    case let d as Double: d.isFinite ? Decimal(string: "\(d)") : nil
    default: nil
    }
  }
}

extension Date: ContextLiteralConvertible {
  public static var contextTypeName: String { "Date" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let s) = literal, let date = ISODateText.parse(s) else {
      throw Self.mismatch(literal, hint: "write 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'")
    }
    self = date
  }
  public var contextLiteral: Literal { .string(ISODateText.format(self)) }
}

extension Array: ContextLiteralConvertible where Element: ContextLiteralConvertible {
  public static var contextTypeName: String { "[\(Element.contextTypeName)]" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .list(let items) = literal else { throw Self.mismatch(literal) }
    var result: [Element] = []
    result.reserveCapacity(items.count)
    for item in items {
      do throws(LiteralCoercionError) {
        result.append(try Element(contextLiteral: item))
      } catch {
        throw LiteralCoercionError(
          expectedType: Self.contextTypeName, literal: literal,
          hint: "element \(item) is not \(Element.contextTypeName)")
      }
    }
    self = result
  }
  public var contextLiteral: Literal { .list(map(\.contextLiteral)) }
  public static func fromContextValue(_ value: Any) -> [Element]? {
    if let same = value as? [Element] { return same }
    guard let items = value as? [Any] else { return nil }
    var result: [Element] = []
    for item in items {
      guard let element = Element.fromContextValue(item) else { return nil }
      result.append(element)
    }
    return result
  }
}

extension Dictionary: ContextLiteralConvertible
where Key == String, Value: ContextLiteralConvertible {
  public static var contextTypeName: String { "[String: \(Value.contextTypeName)]" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .dictionary(let entries) = literal else { throw Self.mismatch(literal) }
    var result: [String: Value] = [:]
    for entry in entries {
      do throws(LiteralCoercionError) {
        result[entry.key] = try Value(contextLiteral: entry.value)
      } catch {
        throw LiteralCoercionError(
          expectedType: Self.contextTypeName, literal: literal,
          hint: "value of '\(entry.key)' is not \(Value.contextTypeName)")
      }
    }
    self = result
  }
  public var contextLiteral: Literal {
    .dictionary(
      keys.sorted().compactMap { key in
        self[key].map { Literal.Entry(key: key, value: $0.contextLiteral) }
      })
  }
}

extension Optional: ContextLiteralConvertible where Wrapped: ContextLiteralConvertible {
  public static var contextTypeName: String { "\(Wrapped.contextTypeName)?" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    if case .null = literal {
      self = .none
      return
    }
    do throws(LiteralCoercionError) {
      self = .some(try Wrapped(contextLiteral: literal))
    } catch {
      throw LiteralCoercionError(
        expectedType: Self.contextTypeName, literal: literal, hint: error.hint)
    }
  }
  public var contextLiteral: Literal { map(\.contextLiteral) ?? .null }
  public static func fromContextValue(_ value: Any) -> Wrapped?? {
    Wrapped.fromContextValue(value).map { .some($0) }
  }
}

/// `d` as an `Int` when it is a whole number in range.
func exactInt(_ d: Decimal) -> Int? {
  guard !d.isNaN, d.isFinite else { return nil }
  var source = d
  var rounded = Decimal()
  NSDecimalRound(&rounded, &source, 0, .plain)
  guard rounded == d, rounded.magnitude <= Decimal(Int.max) else { return nil }
  let i = NSDecimalNumber(decimal: rounded).int64Value
  return Decimal(i) == rounded ? Int(i) : nil
}

extension Literal: ContextLiteralConvertible {
  /// Any literal: for keys whose values are coerced later (`initialPropertyValues`).
  public static var contextTypeName: String { "value" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) { self = literal }
  public var contextLiteral: Literal { self }
}
