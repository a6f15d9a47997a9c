import EnvKeys
import Foundation
import Testing

@testable import Components

/// `propertyValue`'s shortcut for an attribute's value gives what the way through `Any` and
/// its casts gives, value and type, for every kind it takes; the others go that way.
@Suite struct PropertyValuesTests {
  static let plain: [DatabaseValue] = [
    .null, .int(0), .int(-7), .int(.max), .string(""), .string("ACADEMY DINOSAUR, long enough"),
    .string("é\u{200B}"), .double(4.99), .double(-0.0), .double(.nan), .double(.infinity),
    .decimal(Decimal(string: "4.990")!), .bool(true), .bool(false),
    .date(Date(timeIntervalSince1970: 1_000_000)), .data(Data()), .data(Data([0, 0xFF])),
  ]

  static func described(_ value: (any Sendable)?) -> String {
    guard let value else { return "nil" }
    return "\(type(of: value as Any)) \(String(reflecting: value))"
  }

  @Test(arguments: plain)
  func theShortcutGivesWhatTheWayThroughAnyGives(value: DatabaseValue) throws {
    let shortcut = try #require(PropertyValues.sendable(plain: value))
    let through = PropertyValues.sendable(value.anyValue)
    #expect(Self.described(shortcut) == Self.described(through), "\(value)")
  }

  @Test(arguments: [
    DatabaseValue.array(["a", nil]), .array(["a"]), .list([.int(1)]), .verbatim("x"),
    .textBytes(Data([0xC0])),
  ])
  func theOtherKindsGoThroughAny(value: DatabaseValue) {
    #expect(PropertyValues.sendable(plain: value) == nil, "\(value)")
  }
}
