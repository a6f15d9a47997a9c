import EnvKeys
import Foundation

extension DatabaseValue {
  /// A value as one of `attribute`'s. A value of a kind only a database gives (a double, a
  /// blob, a date, an array, a verbatim value: the text parser makes none of them) is itself,
  /// bound as it is, whatever the column's type: D2S's own queries compare with exactly what
  /// was fetched. A constant typed in a qualifier or a command (nil, a boolean, an integer, a
  /// decimal, text, a list) is converted to the column's type, or refused (`'2006-02-15'`
  /// becomes a date, `1` a decimal `1`, `(7, 8)` an array; `0` for a date column is an error).
  /// - Throws: ``DatabaseError`` (`invalidValue`) when it does not fit.
  public static func coerce(_ value: DatabaseValue, to attribute: Attribute) throws
    -> DatabaseValue
  {
    func fail() -> DatabaseError {
      DatabaseError(
        .invalidValue,
        "cannot use \(value.kindName) \(value.qualifierText) for \(attribute.name): expected \(attribute.valueType.rawValue)"
      )
    }
    switch (value, attribute.valueType) {
    case (.null, _), (.verbatim, _), (.double, _), (.date, _), (.data, _), (.textBytes, _),
      (.array, _), (.string, .string), (.int, .int), (.decimal, .decimal), (.bool, .bool):
      return value
    // PostgreSQL's text of an array with other lower bounds or several dimensions, which no
    // list can write: kept as that text, for the database to read.
    case (.string(let s), .array) where s.hasPrefix("[") || s.hasPrefix("{{"):
      guard ArrayText.parse(s) != nil else { throw fail() }
      return .verbatim(s)
    case (.int(let i), .string): return .string(String(i))
    case (.decimal(let d), .string): return .string(d.description)
    case (.decimal(let d), .int):
      guard let i = Int(exactly: NSDecimalNumber(decimal: d).doubleValue), Decimal(i) == d else {
        throw fail()
      }
      return .int(i)
    case (.int(let i), .double): return .double(Double(i))
    // A double no decimal literal writes (`'1e+308'`, `'inf'`), as a facet's link gives it.
    case (.string(let s), .double):
      guard let d = Double(s) else { throw fail() }
      return .double(d)
    // By its text: the double nearest the decimal (`NSDecimalNumber`'s conversion is not).
    case (.decimal(let d), .double):
      return .double(Double(DecimalText.format(d)) ?? NSDecimalNumber(decimal: d).doubleValue)
    case (.int(let i), .decimal): return .decimal(Decimal(i))
    case (.int(let i), .bool) where i == 0 || i == 1: return .bool(i == 1)
    case (.string(let s), .date):
      if let date = DatabaseValue.parseDate(s, kind: attribute.dateKind) { return .date(date) }
      if let zoned = DateForms.zonedText(s, for: attribute) { return .string(zoned) }
      if let special = special(s, for: attribute) { return special }
      throw fail()
    // PostgreSQL's `NaN` and `±Infinity`, as lists show them.
    case (.string(let s), .decimal):
      guard let special = special(s, for: attribute) else { throw fail() }
      return special
    case (.list(let items), .array):
      return .array(
        try items.map { item in
          switch item {
          case .null: return nil
          case .string(let s): return s
          case .int(let i): return String(i)
          case .decimal(let d): return d.description
          case .bool(let b): return b ? "true" : "false"
          default: throw fail()
          }
        })
    case (_, .array):
      throw DatabaseError(
        .invalidValue,
        "cannot use \(value.kindName) \(value.qualifierText) for \(attribute.name): write an array as a list, like (7, 8) or ('a', NULL)"
      )
    default: throw fail()
    }
  }

  /// The value a constant typed for `key` stands for (the text parser's ``Literal``).
  /// - Throws: ``DatabaseError`` (`invalidValue`) for a dictionary, which no column holds.
  public init(literal: Literal, for key: String) throws {
    guard let value = DatabaseValue(literal: literal) else {
      throw DatabaseError(.invalidValue, "\(key) cannot hold a dictionary (\(literal))")
    }
    self = value
  }

  /// A constant typed in a command (the text parser's ``Literal``) as a value of
  /// `attribute`'s type; see ``coerce(_:to:)-(DatabaseValue,_)``.
  /// - Throws: ``DatabaseError`` (`invalidValue`) when it does not fit.
  public static func coerce(_ literal: Literal, to attribute: Attribute) throws -> DatabaseValue {
    guard let value = DatabaseValue(literal: literal) else {
      throw DatabaseError(
        .invalidValue,
        "cannot use \(literal == .null ? "nil" : "\(literal.kindName) \(literal)") for \(attribute.name): expected \(attribute.valueType.rawValue)"
      )
    }
    return try coerce(value, to: attribute)
  }

  /// A value typed by the user (REPL `object.KEY = VALUE`) as the attribute's type.
  public static func coerce(any value: Any?, to attribute: Attribute) throws -> DatabaseValue {
    guard let value = DatabaseValue(any: value) else {
      throw DatabaseError(
        .invalidValue, "cannot store \(String(describing: value)) in \(attribute.name)")
    }
    switch (value, attribute.valueType) {
    case (.null, _), (.string, .string), (.int, .int), (.double, .double), (.decimal, .decimal),
      (.bool, .bool),
      (.date, .date), (.data, .data), (.array, .array):
      return value
    case (.int, _), (.decimal, _), (.string, _), (.bool, _): return try coerce(value, to: attribute)
    default:
      throw DatabaseError(
        .invalidValue,
        "cannot store \(value) in \(attribute.name): expected \(attribute.valueType.rawValue)")
    }
  }

  /// Parses ISO forms: `2006-02-15`, `2006-02-15 04:34:33[.fff]` (or `T`, optional `Z`), and,
  /// for time columns, `04:34[:33]`.
  public static func parseDate(_ text: String, kind: Attribute.DateKind?) -> Date? {
    if let date = ISODateText.parse(text) { return date }
    // Time of day only: seconds since midnight on 1970-01-01.
    let parts = text.split(separator: ":")
    guard kind == .time || parts.count >= 2, parts.count == 2 || parts.count == 3,
      let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
    else { return nil }
    var seconds = Double(h * 3600 + m * 60)
    if parts.count == 3 {
      guard let s = Double(parts[2]), s >= 0, s < 61 else { return nil }
      seconds += s
    }
    return Date(timeIntervalSince1970: seconds)
  }

  /// A date in the form a column of `kind` uses: `2006-02-15`, `04:34:33` or
  /// `2006-02-15 04:34:33`, with a fraction of a second when it has one (`.5`, `.123456`).
  public static func formatDate(_ date: Date, kind: Attribute.DateKind?) -> String {
    // Rounded to microseconds (PostgreSQL's precision) first, so that .9999999 carries into
    // the second; a fetched value written back compares equal.
    let seconds = date.timeIntervalSince1970
    var whole = seconds.rounded(.down)
    var micros = ((seconds - whole) * 1_000_000).rounded()
    if micros >= 1_000_000 {
      whole += 1
      micros = 0
    }
    var full = ISODateText.format(Date(timeIntervalSince1970: whole))
    if micros > 0 && kind != .date {
      var digits = String(Int(micros))
      digits = String(repeating: "0", count: 6 - digits.count) + digits
      while digits.last == "0" { digits.removeLast() }
      full += "." + digits
    }
    switch kind {
    case .date: return String(full.prefix(10))
    case .time: return String(full.dropFirst(11))
    default: return full
    }
  }
}
