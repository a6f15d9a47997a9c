import D2SModel
import EnvKeys
import Foundation

/// A number a person (or an agent's JSON) typed, as the value a column stores: its text
/// read once, for the column's type, so that nothing typed is lost on the way.
enum TypedNumber {
  /// `text` without spaces and grouping commas, when it is a number: digits with at most one
  /// point, an optional sign first and an optional exponent (`1e-05`, `1.5E+3`).
  static func cleaned(_ text: String) -> String? {
    let cleaned = text.filter { $0 != "," && !$0.isWhitespace }
    var sawDigit = false
    var sawPoint = false
    var exponent: String.Index?
    for index in cleaned.indices {
      let c = cleaned[index]
      switch c {
      case "0"..."9": sawDigit = true
      case "." where !sawPoint && exponent == nil: sawPoint = true
      case "+", "-":
        let previous = index == cleaned.startIndex ? nil : cleaned[cleaned.index(before: index)]
        guard previous == nil || previous == "e" || previous == "E" else { return nil }
      case "e", "E":
        guard sawDigit, exponent == nil else { return nil }
        exponent = index
        sawDigit = false
      default: return nil
      }
    }
    return sawDigit ? cleaned : nil
  }

  /// The value of `text` (with `negative`, a sign typed apart, as after a currency's `$`) for
  /// `attribute`: a double as the nearest double to the text (`1e308`, `-0`, `-Infinity`),
  /// an integer when whole, a decimal as `Decimal`, or as the text itself when `Decimal`
  /// would change it (more than 38 digits; an unconstrained `numeric`'s trailing zeros, which
  /// PostgreSQL keeps). Nil when it is no number or does not fit.
  static func value(_ text: String, negative: Bool = false, for attribute: Attribute?)
    -> DatabaseValue?
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if attribute?.valueType == .double, let infinite = infinity(trimmed) {
      return .double(negative ? -infinite : infinite)
    }
    // A `numeric`'s `NaN` and `±Infinity`, for PostgreSQL to read.
    if attribute?.valueType == .decimal, let attribute,
      let special = DatabaseValue.special((negative ? "-" : "") + trimmed, for: attribute)
    {
      return special
    }
    guard let cleaned = cleaned(trimmed) else { return nil }
    let signed = negative ? "-" + cleaned : cleaned
    if attribute?.valueType == .double {
      guard let double = Double(signed), double.isFinite else { return nil }
      return .double(double)
    }
    guard let d = Decimal(string: signed, locale: Locale(identifier: "en_US_POSIX")) else {
      return nil
    }
    if attribute?.valueType == .decimal, let plain = plainText(signed),
      significantDigits(plain) > 38 || (attribute?.scale == nil && hasTrailingZero(plain))
    {
      return .verbatim(plain.hasPrefix("+") ? String(plain.dropFirst()) : plain)
    }
    return BuiltinFormatters.typed(d, for: attribute)
  }

  /// `inf`, `infinity` (any case, with a sign): the infinite double.
  private static func infinity(_ text: String) -> Double? {
    var body = Substring(text.lowercased())
    var sign = 1.0
    if let first = body.first, first == "-" || first == "+" {
      if first == "-" { sign = -1 }
      body = body.dropFirst()
    }
    return body == "inf" || body == "infinity" ? sign * .infinity : nil
  }

  /// `text` when it is written without an exponent.
  private static func plainText(_ text: String) -> String? {
    text.contains(where: { $0 == "e" || $0 == "E" }) ? nil : text
  }

  /// The digits of a plain number from its first non-zero digit on.
  private static func significantDigits(_ plain: String) -> Int {
    let digits = plain.filter(\.isASCIIDigit)
    return digits.drop { $0 == "0" }.count
  }

  /// Whether a plain number's fraction ends with a zero (`1.10`).
  private static func hasTrailingZero(_ plain: String) -> Bool {
    plain.contains(".") && plain.last == "0"
  }
}

extension Character {
  /// `0` to `9`.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
