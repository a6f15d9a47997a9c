import EnvKeys
import RuleCore

/// A component by its registered name: what `page`, `component`, `rowComponent`… hold. Looks
/// turn names into components; rule text and the Swift DSL name them alike.
public struct ComponentName: Hashable, Sendable, ExpressibleByStringLiteral,
  ContextLiteralConvertible,
  RuleValueConvertible, CustomStringConvertible
{
  public let name: String
  public init(_ name: String) { self.name = name }
  public init(stringLiteral value: String) { self.name = value }

  public static var contextTypeName: String { "Component" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let name) = literal, !name.isEmpty else {
      throw LiteralCoercionError(
        expectedType: "Component", literal: literal, hint: "write its name, like 'EditString'")
    }
    self.name = name
  }
  public var contextLiteral: Literal { .string(name) }
  public var ruleLiteral: Literal { .string(name) }
  public var description: String { name }

  /// The tag debug views put before the component's value: the capitals of its name
  /// (`DisplayString` → `DS`, `EditLargeString` → `ELS`, a plugin's `EditRating` → `ER`),
  /// or the whole name when it has none.
  public var debugTag: String {
    let capitals = String(name.filter(\.isUppercase))
    return capitals.isEmpty ? name : capitals
  }
}

/// A formatter by its registered name (`'currency'`).
public struct FormatterName: Hashable, Sendable, ExpressibleByStringLiteral,
  ContextLiteralConvertible,
  RuleValueConvertible, CustomStringConvertible
{
  public let name: String
  public init(_ name: String) { self.name = name }
  public init(stringLiteral value: String) { self.name = value }

  public static var contextTypeName: String { "Formatter" }
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let name) = literal, !name.isEmpty else {
      throw LiteralCoercionError(
        expectedType: "Formatter", literal: literal, hint: "write its name, like 'currency'")
    }
    self.name = name
  }
  public var contextLiteral: Literal { .string(name) }
  public var ruleLiteral: Literal { .string(name) }
  public var description: String { name }
}
