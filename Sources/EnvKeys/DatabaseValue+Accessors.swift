import Foundation

/// Typed accessors a component or formatter reads a value through: each answers the value as
/// its type when the value holds one exactly (or, for numbers, converts between them as
/// documented), else nil. `storedText()` (D2SModel) gives any value as text.
///
/// ```swift
/// let price = DatabaseValue.decimal(Decimal(string: "12.50")!)
/// price.decimal  // 12.5
/// price.double   // 12.5
/// price.int      // nil: not a whole number
/// DatabaseValue.int(3).decimal  // 3
/// DatabaseValue.string("PG-13").text  // "PG-13"
/// DatabaseValue.null.text  // nil
/// ```
extension DatabaseValue {
  /// An integer: `.int`, or a `.decimal`, `.double` or numeric `.verbatim` that is a whole
  /// number within `Int`'s range (a `NUMERIC(10,0)` column); else nil (text, booleans, NULL).
  public var int: Int? {
    switch self {
    case .int(let v): return v
    case .double(let v):
      return v.isFinite && v.rounded() == v ? Int(exactly: v) : nil
    case .decimal, .verbatim:
      guard let d = decimal, d.isFinite else { return nil }
      var whole = d
      var rounded = Decimal()
      NSDecimalRound(&rounded, &whole, 0, .plain)
      guard rounded == d else { return nil }
      return Int(exactly: NSDecimalNumber(decimal: rounded).int64Value).flatMap {
        Decimal($0) == rounded ? $0 : nil
      }
    default: return nil
    }
  }

  /// A number as `Double`: `.double`, `.int`, `.decimal` or numeric `.verbatim` (a decimal
  /// may round to the nearest double); else nil.
  public var double: Double? {
    switch self {
    case .double(let v): return v
    case .int(let v): return Double(v)
    case .decimal, .verbatim:
      return decimal.map { NSDecimalNumber(decimal: $0).doubleValue }
    default: return nil
    }
  }

  /// A number as `Decimal`, exactly where it can be: `.decimal`, `.int`, a `.double` by its
  /// shortest text (`0.1` is 0.1), or a `.verbatim` number as the database wrote it
  /// (PostgreSQL's `12.50`; not `NaN` or `Infinity`, nor one of more than 38 significant
  /// digits, which `Decimal` would round); else nil.
  public var decimal: Decimal? {
    switch self {
    case .decimal(let v): return v
    case .int(let v): return Decimal(v)
    case .double(let v): return v.isFinite ? Decimal(string: String(v)) : nil
    case .verbatim(let text):
      // A number Decimal holds exactly: at most 38 significant digits (more would round).
      let mantissa = text.prefix { $0 != "e" && $0 != "E" }
      let digits = mantissa.filter { $0.isASCII && $0.isNumber }.drop { $0 == "0" }.reversed().drop
      {
        $0 == "0" && mantissa.contains(".")
      }
      guard !text.isEmpty,
        text.unicodeScalars.allSatisfy({ "0123456789.-+eE".unicodeScalars.contains($0) }),
        text.unicodeScalars.contains(where: { ("0"..."9").contains($0) }), digits.count <= 38
      else { return nil }
      return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    default: return nil
    }
  }

  /// Text: a `.string`'s, or a `.textBytes`'s with each byte that is not UTF-8 as `\xNN`;
  /// else nil (a number is not text: `storedText()` writes any value).
  public var text: String? {
    switch self {
    case .string(let v): v
    case .textBytes(let v): Self.escapedText(v)
    default: nil
    }
  }

  /// A boolean: `.bool`, or `.int` 0 or 1 (SQLite stores booleans as integers); else nil.
  public var bool: Bool? {
    switch self {
    case .bool(let v): v
    case .int(0): false
    case .int(1): true
    default: nil
    }
  }

  /// A date: `.date`; else nil (a date in a form D2S does not read stays `.string`).
  public var date: Date? {
    if case .date(let v) = self { return v }
    return nil
  }

  /// Bytes: `.data`; else nil.
  public var data: Data? {
    if case .data(let v) = self { return v }
    return nil
  }

  /// A PostgreSQL array's elements (nil for a NULL element): `.array`; else nil.
  public var array: [String?]? {
    if case .array(let v) = self { return v }
    return nil
  }
}
