import Foundation
import Testing

@testable import PostgreSQLAdaptor

/// PostgreSQL's numeric text read byte by byte gives what reading it through Foundation gives:
/// the same value, or the same refusal, for every form, with and without a scale.
@Suite struct QuickDecimalTests {
  /// Numbers of every shape: signs, leading and trailing zeros, long mantissas, stray bytes.
  static var texts: [String] {
    var texts = [
      "0", "-0", "0.0", "0.00", "-0.00", "00", "05", "00.5", "0.5", "-0.5", "4.99", "4.90", "4.9",
      "100", "-100", "1.", ".5", "-", "", "1e5", "1.2.3", "--1", "+1", " 1", "1 ", "١٢",
      "123456789012345678", "1234567890123456789", "0.000000000000000001", "99999999999999999.9",
      "-12.50", "253.60", "1.500", "1.234",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let whole = String(UInt64.random(in: 0...999_999_999, using: &generator))
      let fraction = String(UInt64.random(in: 0...99_999, using: &generator))
      let zeros = String(repeating: "0", count: Int.random(in: 0...2, using: &generator))
      let sign = Bool.random(using: &generator) ? "-" : ""
      texts.append(sign + whole)
      texts.append(sign + whole + "." + fraction + zeros)
      texts.append(sign + "0." + zeros + fraction)
    }
    return texts
  }

  @Test func theQuickReadingAgreesWithFoundations() {
    var decided = 0
    for text in Self.texts {
      for scale in [nil, 0, 1, 2, 3, 5] as [Int?] {
        let slow = PostgreSQLTypes.parsedDecimal(text, scale: scale)
        guard let quick = PostgreSQLTypes.quickDecimal(text, scale: scale) else { continue }
        decided += 1
        #expect(quick == slow, "\(text) with scale \(String(describing: scale))")
        #expect(quick?.hashValue == slow?.hashValue)
      }
    }
    // Most forms are decided without Foundation: the quick path is taken.
    #expect(decided > Self.texts.count)
  }
}
