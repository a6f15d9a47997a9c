import Components
import D2SModel
import EnvKeys
import Foundation
import Testing

/// Positions survive the URL exactly: the same value comes back, of the same type.
@Suite struct PositionTokenTests {
  @Test func everyKindOfValueComesBackExactly() throws {
    let values: [DatabaseValue] = [
      .null, .int(-42), .int(Int.max), .double(0.1), .double(-.infinity),
      .decimal(Decimal(string: "253.60")!),
      .string("a,b/c%d e\u{1F600}"), .bool(true),
      .date(Date(timeIntervalSince1970: 1_716_543_210.345)),
      .date(Date(timeIntervalSinceReferenceDate: 0.000_001)), .data(Data([0, 255, 16])),
      .verbatim("-Infinity"),
    ]
    let token = try #require(PositionToken.encode(values))
    let back = try PositionToken.decode(token)
    #expect(back == values)
  }

  @Test func whatIsNotAPositionIsAnError() {
    for text in ["", "q1", "i", "t1e19", "T1e19", "x0", "b2", "n1", "s%ZZ"] {
      #expect(throws: PositionTokenError.self, "\(text)") { try PositionToken.decode(text) }
    }
  }
}
