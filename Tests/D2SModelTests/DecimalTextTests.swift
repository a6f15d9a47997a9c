import D2STesting
import Foundation
import Testing

@testable import D2SModel

/// Decimals to and from text, fast, agree with Foundation's slow ways for every value.
@Suite struct DecimalTextTests {
  @Test func theLayoutIsReadAsFoundationWritesIt() {
    #expect(DecimalText.layoutIsKnown)
  }

  @Test func formatEqualsDescription() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<50_000 {
      let mantissa = random.next() >> UInt64(random.next(64))
      let exponent = random.next(40) - 25
      let d = Decimal(
        sign: random.next(2) == 0 ? .minus : .plus, exponent: exponent,
        significand: Decimal(mantissa))
      #expect(DecimalText.format(d) == d.description, "\(mantissa)e\(exponent)")
    }
    let big = Decimal(string: "123456789012345678901234567890.5", locale: DecimalText.posix)
    #expect(big.map(DecimalText.format) == big?.description)
    #expect(DecimalText.format(Decimal.nan) == Decimal.nan.description)
  }

  @Test func decimalFromADoubleEqualsParsingItsText() {
    var random = SplitMix64(seed: 11)
    var samples: [Double] = [0, -0.0, 1e-7, 5e20, 4.99, -20.99, 0.1, 1e300, .pi, 123456789.123]
    for _ in 0..<50_000 {
      samples.append(Double(Int(truncatingIfNeeded: random.next()) % 10_000_000) / 100)
    }
    // The places found by scaling: 1 to 7 of them, up to and past a billion, and doubles of
    // any bits in that range.
    let scales: [Double] = [10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]
    for _ in 0..<50_000 {
      let whole = Double(Int(truncatingIfNeeded: random.next()) % 2_000_000_000_000_000)
      samples.append(whole / scales[random.next(scales.count)])
      samples.append(
        Double(bitPattern: 0x3F00_0000_0000_0000 + random.next() % 0x02F0_0000_0000_0000))
    }
    samples += [999_999_999.999999, -999_999_999.5, 1e9 + 0.5, 0.000001, 0.0000015, 1e-6]
    for x in samples {
      let slow = Decimal(string: "\(x)", locale: DecimalText.posix)
      let fast = DecimalText.decimal(from: x)
      #expect(fast == slow, "\(x)")
      #expect(fast.map(DecimalText.format) == slow?.description, "\(x)")
    }
  }
}
