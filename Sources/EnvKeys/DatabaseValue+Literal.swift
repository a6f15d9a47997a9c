import Foundation

extension DatabaseValue {
  /// The value a parsed constant stands for: the one crossing from the text parser's
  /// ``Literal``. Nil for a dictionary, which no column holds and no qualifier compares with.
  public init?(literal: Literal) {
    switch literal {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .decimal(let d): self = .decimal(d)
    case .string(let s): self = .string(s)
    case .list(let items):
      var values: [DatabaseValue] = []
      values.reserveCapacity(items.count)
      for item in items {
        guard let value = DatabaseValue(literal: item) else { return nil }
        values.append(value)
      }
      self = .list(values)
    case .dictionary: return nil
    }
  }

  /// The value as qualifier text: what ``Literal`` prints for the values the parser makes
  /// (`nil`, `'text'`, `1.0`, `('a', 'b')`), so a printed qualifier parses back to an equal one.
  /// The values only a database gives print exactly, as their nearest constant: a date as
  /// quoted ISO text with its fraction of a second, a double as a decimal, verbatim text
  /// quoted, an array as a list, a blob in hex (`x'00ff'`, which does not parse: blobs are
  /// compared only by D2S's own queries). Two different values never print alike, so the
  /// text identifies a list (``ListIdentity``).
  public var qualifierText: String {
    switch self {
    case .null: "nil"
    case .bool(let b): b ? "true" : "false"
    case .int(let i): String(i)
    case .decimal(let d): Literal.format(decimal: d)
    case .double(let d): Self.doubleText(d)
    case .string(let s), .verbatim(let s): Literal.quote(s)
    case .date(let d): Literal.quote(Self.exactDateText(d))
    case .data(let data): "x'" + data.map(Self.hexByte).joined() + "'"
    // Text that is not UTF-8: its bytes, marked apart from a blob's (neither parses).
    case .textBytes(let data): "t'" + data.map(Self.hexByte).joined() + "'"
    case .array(let items):
      "(" + items.map { $0.map(Literal.quote) ?? "nil" }.joined(separator: ", ") + ")"
    case .list(let items): "(" + items.map(\.qualifierText).joined(separator: ", ") + ")"
    }
  }

  /// A double as a decimal literal when one of at most 38 digits reads back as it (`1.5`,
  /// `0.1`); else its shortest text quoted (`'1e+308'`, `'5e-324'`, `'inf'`), which a double
  /// column reads as that double (``DatabaseValue/coerce(_:to:)``).
  static func doubleText(_ d: Double) -> String {
    let shortest = String(d)
    if d.isFinite, let decimal = Decimal(string: shortest) {
      let text = Literal.format(decimal: decimal)
      if text.utf8.count(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) <= 38,
        !text.contains("e"), Double(text) == d
      {
        return text
      }
    }
    return Literal.quote(shortest)
  }

  /// Two lower-case hex digits.
  static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }

  /// `2024-03-05 10:11:12`, with the fraction of a second when there is one (to the
  /// microsecond, PostgreSQL's precision): `2024-03-05 10:11:12.345`.
  static func exactDateText(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    var whole = seconds.rounded(.down)
    var micros = Int(((seconds - whole) * 1_000_000).rounded())
    if micros >= 1_000_000 {
      whole += 1
      micros = 0
    }
    let text = ISODateText.format(Date(timeIntervalSince1970: whole))
    guard micros > 0 else { return text }
    var digits = String(micros)
    digits = String(repeating: "0", count: 6 - digits.count) + digits
    while digits.last == "0" { digits.removeLast() }
    return text + "." + digits
  }

  /// A key value as a person types it after `inspect` or `edit`: a bare key
  /// (``Literal/isBareKey(_:)``) as it is, numbers as numbers, other values as qualifier text.
  public static func keyText(_ value: DatabaseValue) -> String {
    if case .string(let s) = value, Literal.isBareKey(s) { return s }
    return value.qualifierText
  }

  /// A short name of the value's kind for error messages (`an integer`, `a string`).
  public var kindName: String {
    switch self {
    case .null: "nil"
    case .bool: "a boolean"
    case .int: "an integer"
    case .decimal, .double: "a decimal"
    case .string, .verbatim: "a string"
    case .date: "a date"
    case .data: "a blob"
    case .textBytes: "text that is not UTF-8"
    case .array, .list: "a list"
    }
  }
}
