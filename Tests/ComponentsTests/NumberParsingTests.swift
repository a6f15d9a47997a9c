import D2SModel
import EnvKeys
import Foundation
import Testing

@testable import Components

/// A number typed for a decimal or floating-point column is stored as typed: more than 38
/// digits and an unconstrained `numeric`'s trailing zeros kept as the text (PostgreSQL keeps
/// both; `Decimal` rounded the first and dropped the second), an exponent read (`1e-05`, as
/// agents' JSON writes small numbers), a double read as the nearest double to its text
/// (`1e308`, `-0`, `-Infinity`), not through `Decimal`.
@Suite struct NumberParsingTests {
  let registry = FormatterRegistry()
  static func attribute(_ type: String, _ valueType: Attribute.ValueType, scale: Int? = nil)
    -> Attribute
  {
    Attribute(
      name: "n", columnName: "n", externalType: type, valueType: valueType, allowsNull: true,
      scale: scale)
  }
  let free = attribute("numeric", .decimal)
  let fixed = attribute("numeric(10,2)", .decimal, scale: 2)
  let wide = attribute("numeric(70,35)", .decimal, scale: 35)
  let double = attribute("double precision", .double)

  func parse(_ text: String, _ attribute: Attribute, _ name: String = "decimal") throws
    -> DatabaseValue?
  {
    try registry.formatter(named: name)?.parse(text, for: attribute)
  }

  @Test func decimalsKeepWhatDecimalCannot() throws {
    let long = "12345678901234567890123456789012345.12345678901234567890123456789012345"
    #expect(try parse(long, wide) == .verbatim(long))
    #expect(try parse("-" + long, wide) == .verbatim("-" + long))
    #expect(
      try parse("0.1234567890123456789012345678901234567890", free)
        == .verbatim("0.1234567890123456789012345678901234567890"))
    #expect(try parse("1.10", free) == .verbatim("1.10"))
    #expect(try parse("1.10", fixed) == .decimal(Decimal(string: "1.1")!))
    #expect(try parse("1,234.5", free) == .decimal(Decimal(string: "1234.5")!))
    #expect(try parse("20.99", fixed) == .decimal(Decimal(string: "20.99")!))
  }

  @Test func exponentsAreRead() throws {
    #expect(try parse("1e-05", free) == .decimal(Decimal(string: "0.00001")!))
    #expect(try parse("1.5E+3", fixed) == .decimal(1500))
    #expect(try parse("1e16", free) == .decimal(Decimal(string: "10000000000000000")!))
    #expect(throws: (any Error).self) { try parse("1e", free) }
    #expect(throws: (any Error).self) { try parse("e5", free) }
  }

  @Test func doublesAreTheNearestDoubleToTheirText() throws {
    #expect(try parse("0.1", double) == .double(0.1))
    #expect(try parse("1e308", double) == .double(1e308))
    #expect(try parse("1.5e-7", double) == .double(1.5e-7))
    #expect(try parse("-Infinity", double) == .double(-.infinity))
    #expect(try parse("Infinity", double) == .double(.infinity))
    guard case .double(let zero) = try parse("-0", double) else {
      Issue.record("not a double")
      return
    }
    #expect(zero == 0 && zero.sign == .minus)
    #expect(registry.formatter(named: "decimal")?.format(.double(-0.0), for: double) == "-0")
    #expect(throws: (any Error).self) { try parse("1e999", double) }
    #expect(throws: (any Error).self) { try parse("abc", double) }
  }
}
