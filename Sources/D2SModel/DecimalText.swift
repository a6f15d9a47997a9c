import Foundation

/// Decimals to and from text, fast, for the per-row work of long lists: Foundation's
/// `Decimal(string:)` and `description` cost about 2 µs a value, most of a decimal cell's time
/// in a profile of a 200,000-row list; these take a fifth of that.
///
/// `format(_:)` reads the decimal's mantissa from its memory (the layout of `NSDecimal`, which
/// Foundation keeps), but only after checking at first use that this reading gives what
/// `description` gives for known values; when it does not, and for mantissas beyond 64 bits,
/// it is `description`.
public enum DecimalText {
  /// The POSIX locale (a dot for the decimal separator), made once.
  public static let posix = Locale(identifier: "en_US_POSIX")

  /// A double's shortest text as a decimal (`4.99`, never `4.990000000000000213`), as
  /// `Decimal(string: "\(x)")` gives it.
  public static func decimal(from x: Double) -> Decimal? {
    if let few = fewPlaces(x) { return few }
    let text = x.description  // as "\(x)", without the interpolation's stream
    var mantissa: UInt64 = 0
    var exponent = 0
    var digits = 0
    var point = false
    var negative = false
    for c in text.utf8 {
      switch c {
      case UInt8(ascii: "-") where digits == 0 && !negative && !point:
        negative = true
      case UInt8(ascii: ".") where !point:
        point = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        // Exponent forms (`1e-05`) and more than 18 significant digits go the slow way.
        guard digits < 18 else { return Decimal(string: text, locale: posix) }
        mantissa = mantissa * 10 + UInt64(c - UInt8(ascii: "0"))
        if mantissa > 0 { digits += 1 }
        if point { exponent -= 1 }
      default:
        return Decimal(string: text, locale: posix)
      }
    }
    if mantissa == 0 { return Decimal(0) }
    return Decimal(
      sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
  }

  /// Powers of ten a double holds exactly, up to the most places ``fewPlaces(_:)`` tries.
  private static let scales: [Double] = [10, 100, 1_000, 10_000, 100_000, 1_000_000]

  /// `x` as the decimal of 1 to 6 places that reads back as it (a price, a rate), found by
  /// scaling rather than through its text; nil for a whole number, for more places, and
  /// from a billion up.
  ///
  /// `m / 10^k` is correctly rounded, so when it gives `x` back, the decimal `m` with `k`
  /// places reads as `x`. Below a billion a double's spacing is under a millionth, so no other
  /// decimal of `k` places reads as `x`, and the fewest places that do are the shortest text:
  /// the same digits as `x.description`.
  static func fewPlaces(_ x: Double) -> Decimal? {
    let magnitude = x.magnitude
    guard magnitude < 1e9, magnitude > 0, x.rounded() != x else { return nil }
    for (index, scale) in scales.enumerated() {
      let scaled = (magnitude * scale).rounded()
      guard scaled / scale == magnitude else { continue }
      return Decimal(
        sign: x < 0 ? .minus : .plus, exponent: -(index + 1),
        significand: Decimal(UInt64(scaled)))
    }
    return nil
  }

  /// `d.description`: `4.99`, `-0.001`, `500`.
  public static func format(_ d: Decimal) -> String {
    guard layoutIsKnown, let text = layoutFormat(d) else { return d.description }
    return text
  }

  /// Whether the memory layout reads as expected (checked once, against `description`).
  static let layoutIsKnown: Bool = {
    let samples = ["960.27", "-123.45", "0", "5e3", "1e-7", "-0.5", "18446744073709551615"]
    return samples.allSatisfy { text in
      guard let d = Decimal(string: text, locale: posix) else { return false }
      return layoutFormat(d) == d.description
    }
  }()

  /// The text of `d` read from its memory: byte 0 the exponent, byte 1 the length in
  /// mantissa words (high four bits) and the sign (bit 3), from byte 4 the mantissa in
  /// little-endian 16-bit words. Nil beyond 64 bits of mantissa, and for NaN.
  static func layoutFormat(_ d: Decimal) -> String? {
    guard MemoryLayout<Decimal>.size == 20 else { return nil }
    return withUnsafeBytes(of: d) { raw -> String? in
      let flags = raw[1]
      let length = Int(flags >> 4)
      let negative = flags & 0x8 != 0
      guard length <= 4, length > 0 || !negative else { return nil }
      var mantissa: UInt64 = 0
      for word in 0..<length {
        mantissa |= (UInt64(raw[4 + 2 * word]) | UInt64(raw[5 + 2 * word]) << 8) << (16 * word)
      }
      if mantissa == 0 { return "0" }
      let exponent = Int(Int8(bitPattern: raw[0]))
      return plainText(mantissa: mantissa, exponent: exponent, negative: negative)
    }
  }

  /// `mantissa × 10^exponent` in plain notation (`4.99`, `-0.001`, `500`), written from the
  /// right into one buffer.
  static func plainText(mantissa: UInt64, exponent: Int, negative: Bool) -> String {
    var digitCount = 0
    var rest = mantissa
    repeat {
      digitCount += 1
      rest /= 10
    } while rest > 0
    let fraction = max(-exponent, 0)
    let body =
      exponent >= 0 ? digitCount + exponent : fraction + 1 + max(digitCount - fraction, 1)
    let length = (negative ? 1 : 0) + body
    return String(unsafeUninitializedCapacity: length) { buffer in
      var index = length
      var m = mantissa
      func put(_ byte: UInt8) {
        index -= 1
        buffer[index] = byte
      }
      for _ in 0..<max(exponent, 0) { put(UInt8(ascii: "0")) }
      if fraction > 0 {
        for _ in 0..<fraction {
          put(UInt8(truncatingIfNeeded: 48 + m % 10))
          m /= 10
        }
        put(UInt8(ascii: "."))
        if m == 0 { put(UInt8(ascii: "0")) }
      }
      while m > 0 {
        put(UInt8(truncatingIfNeeded: 48 + m % 10))
        m /= 10
      }
      if negative { put(UInt8(ascii: "-")) }
      return length
    }
  }
}
