import D2SModel
import EnvKeys
import Foundation

/// PostgreSQL types → value types (by type name, domains by their base type), and values to
/// and from PostgreSQL's text format (`DateStyle=ISO`, `TimeZone=UTC`).
enum PostgreSQLTypes {
  /// The value type and date kind for a type name (`int4`, `numeric`, `_text`, `mpaa_rating`).
  static func valueType(typeName: String, isEnum: Bool, isArray: Bool) -> (
    Attribute.ValueType, Attribute.DateKind?
  ) {
    if isArray { return (.array, nil) }
    if isEnum { return (.string, nil) }
    switch typeName {
    case "int2", "int4", "int8", "oid", "smallint", "integer", "bigint": return (.int, nil)
    case "float4", "float8": return (.double, nil)
    case "numeric", "money": return (.decimal, nil)
    case "bool": return (.bool, nil)
    case "date": return (.date, .date)
    case "time", "timetz": return (.date, .time)
    case "timestamp", "timestamptz": return (.date, .dateTime)
    case "bytea": return (.data, nil)
    default: return (.string, nil)
    }
  }

  /// The value type of a result column without an attribute, by type OID.
  static func decode(_ text: String, oid: UInt32) -> DatabaseValue {
    switch oid {
    case 16: return .bool(text == "t")
    case 20, 21, 23, 26: return Int(text).map { .int($0) } ?? .string(text)
    case 700, 701:
      guard let d = Double(text), d.isFinite else { return .verbatim(text) }
      return .double(d)
    case 1700: return exactDecimal(text, scale: nil).map { .decimal($0) } ?? .verbatim(text)
    case 1082, 1114:
      let kind: Attribute.DateKind = oid == 1082 ? .date : .dateTime
      guard DateForms.isCanonical(text, kind: kind),
        let date = DatabaseValue.parseDate(text, kind: kind),
        DateForms.isExact(date, text, kind: kind)
      else { return .string(text) }
      return .date(date)
    case 17: return decodeBytea(text).map { .data($0) } ?? .string(text)
    default: return .string(text)
    }
  }

  /// The POSIX locale (a dot for the decimal separator), shared.
  static var posix: Locale { DecimalText.posix }

  /// A text value as `attribute`'s type, when that type's case holds it exactly; else as
  /// ``DatabaseValue/verbatim(_:)`` (`-Infinity`, numerics `Decimal` would change) or as text
  /// (dates in a form other than D2S's, with a zone or a fraction).
  static func decode(_ text: String, as attribute: Attribute) -> DatabaseValue {
    decode(text, as: ColumnType(attribute))
  }

  /// What decoding a column reads of its attribute, copied out of it once per statement (the
  /// model's attributes are shared by every pooled connection: reading one per cell retained
  /// and released it, its reference count's cache line going from core to core).
  struct ColumnType {
    let valueType: Attribute.ValueType
    let isMoney: Bool
    let scale: Int?
    let dateKind: Attribute.DateKind?

    init(_ attribute: Attribute) {
      valueType = attribute.valueType
      isMoney = attribute.externalType == "money"
      scale = attribute.scale
      dateKind = attribute.dateKind
    }
  }

  /// A text value as `type` says (see the attribute's ``decode(_:as:)``).
  static func decode(_ text: String, as type: ColumnType) -> DatabaseValue {
    switch type.valueType {
    // Every blank is kept: `char(n)`'s padding is part of what is stored.
    case .string: return .string(text)
    case .int: return Int(text).map { .int($0) } ?? .verbatim(text)
    case .double:
      guard let d = Double(text), d.isFinite else { return .verbatim(text) }
      return .double(d)
    case .decimal:
      if type.isMoney { return money(text) }
      return exactDecimal(text, scale: type.scale).map { .decimal($0) } ?? .verbatim(text)
    case .bool: return text == "t" ? .bool(true) : text == "f" ? .bool(false) : .verbatim(text)
    case .date:
      guard DateForms.isCanonical(text, kind: type.dateKind),
        let date = DatabaseValue.parseDate(text, kind: type.dateKind),
        DateForms.isExact(date, text, kind: type.dateKind)
      else { return .string(text) }
      return .date(date)
    case .data: return decodeBytea(text).map { .data($0) } ?? .verbatim(text)
    case .array:
      // One dimension from 1: a list of elements. Explicit lower bounds (`[0:1]={…}`) or more
      // dimensions (`{{1,2},{3,4}}`): PostgreSQL's own text, shown as psql shows it.
      return isOneDimensional(text) ? .array(parseArray(text)) : .verbatim(text)
    }
  }

  /// Whether array text is `{…}` of one dimension, its lower bound 1 (no `[m:n]=` prefix, no
  /// element that is itself an array).
  static func isOneDimensional(_ text: String) -> Bool {
    var bytes = text.utf8.makeIterator()
    guard bytes.next() == UInt8(ascii: "{") else { return false }
    return bytes.next() != UInt8(ascii: "{")
  }

  /// `text` as a decimal when it is a plain number whose decimal prints back as the same text
  /// (padded to the column's scale): `253.60` in a `numeric(12,2)`, never in a `numeric`.
  static func exactDecimal(_ text: String, scale: Int?) -> Decimal? {
    if let decided = quickDecimal(text, scale: scale) { return decided }
    return parsedDecimal(text, scale: scale)
  }

  /// ``exactDecimal(_:scale:)`` for the common forms, read byte by byte without Foundation
  /// (a list of prices reads one per row): up to 18 digits, no leading zero, no minus zero, as
  /// many fraction digits as the scale (or, without one, none trailing). Nil when it cannot
  /// tell: ``parsedDecimal(_:scale:)`` then decides.
  static func quickDecimal(_ text: String, scale: Int?) -> Decimal?? {
    var mantissa: UInt64 = 0
    var digits = 0
    var fraction = 0
    var point = false
    var negative = false
    var first: UInt8?
    var last: UInt8 = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-") where digits == 0 && !negative && first == nil:
        negative = true
      case UInt8(ascii: ".") where !point && digits > 0:
        point = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard digits < 18 else { return nil }
        if first == nil { first = byte }
        mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
        digits += 1
        if point { fraction += 1 }
      default:
        return .some(nil)
      }
      last = byte
    }
    guard digits > 0, last != UInt8(ascii: ".") else { return .some(nil) }
    if digits - fraction > 1 && first == UInt8(ascii: "0") { return nil }
    if negative && mantissa == 0 { return nil }
    if let scale, scale > 0 {
      guard fraction == scale else { return nil }
    } else if fraction > 0 && last == UInt8(ascii: "0") {
      return nil
    }
    return .some(
      Decimal(
        sign: negative ? .minus : .plus, exponent: -fraction, significand: Decimal(mantissa)))
  }

  /// ``exactDecimal(_:scale:)`` through Foundation: parsed, printed and compared.
  static func parsedDecimal(_ text: String, scale: Int?) -> Decimal? {
    guard isPlainNumber(text), let d = Decimal(string: text, locale: posix) else { return nil }
    var shown = DecimalText.format(d)
    if let scale, scale > 0 {
      if !shown.contains(".") { shown += "." }
      let fraction =
        shown.count - 1
        - (shown.firstIndex(of: ".").map { shown.distance(from: shown.startIndex, to: $0) } ?? 0)
      if fraction < scale { shown += String(repeating: "0", count: scale - fraction) }
    }
    return shown == text ? d : nil
  }

  /// `-12.50`: an optional minus, digits, an optional fraction; nothing else.
  static func isPlainNumber(_ text: String) -> Bool {
    var digits = 0
    var point = false
    for (offset, byte) in text.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "-") where offset == 0: continue
      case UInt8(ascii: ".") where !point && digits > 0: point = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
      default: return false
      }
    }
    return digits > 0 && digits <= 38 && text.utf8.last != UInt8(ascii: ".")
  }

  /// `money` as PostgreSQL prints it in the C and English locales (`-$1,234.50`) as a
  /// decimal; any other form verbatim.
  static func money(_ text: String) -> DatabaseValue {
    var body = Substring(text)
    let negative = body.hasPrefix("-")
    if negative { body = body.dropFirst() }
    guard body.hasPrefix("$") else { return .verbatim(text) }
    let digits = body.dropFirst().filter { $0 != "," }
    guard isPlainNumber(digits), let d = Decimal(string: digits, locale: posix) else {
      return .verbatim(text)
    }
    return .decimal(negative ? -d : d)
  }

  /// `\x48656c6c6f` → bytes.
  static func decodeBytea(_ text: String) -> Data? {
    guard text.hasPrefix("\\x") else { return nil }
    let hex = Array(text.utf8.dropFirst(2))
    guard hex.count % 2 == 0 else { return nil }
    var bytes = Data(capacity: hex.count / 2)
    var index = 0
    while index < hex.count {
      guard let high = hexValue(hex[index]), let low = hexValue(hex[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: byte - 48
    case 97...102: byte - 87
    case 65...70: byte - 55
    default: nil
    }
  }

  /// `{a,"b c","d\"e",NULL,"NULL"}` → `["a", "b c", "d\"e", nil, "NULL"]` (one dimension;
  /// an unquoted `NULL` is a NULL element, a quoted one the text).
  static func parseArray(_ text: String) -> [String?] {
    var items: [String?] = []
    var current = ""
    var quoted = false
    var wasQuoted = false
    var escaped = false
    var started = false
    func finish() {
      items.append(!wasQuoted && current.uppercased() == "NULL" ? nil : current)
      current = ""
      started = false
      wasQuoted = false
    }
    for c in text.dropFirst().dropLast() {
      if escaped {
        current.append(c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == "\"" {
        quoted.toggle()
        wasQuoted = true
        started = true
      } else if c == "," && !quoted {
        finish()
      } else {
        current.append(c)
        started = true
      }
    }
    if started || !current.isEmpty || !items.isEmpty { finish() }
    return items
  }

  /// Why a value holding a NUL character cannot be saved.
  static let nulRefusal =
    "PostgreSQL text cannot hold a NUL character (\\x00), nor bytes that are not UTF-8"

  /// Whether `value` is text holding a NUL character, or bytes that are not UTF-8, which
  /// PostgreSQL's text types cannot store (and libpq would cut a NUL short; bytea is sent as
  /// `\\x…` text and holds none).
  static func holdsNUL(_ value: DatabaseValue) -> Bool {
    switch value {
    case .textBytes: true
    case .string(let text), .verbatim(let text): text.utf8.contains(0)
    case .array(let items): items.contains { $0?.utf8.contains(0) == true }
    case .list(let items): items.contains(where: holdsNUL)
    default: false
    }
  }

  /// A value as a text parameter (nil for NULL).
  static func text(_ value: DatabaseValue) -> String? {
    switch value {
    case .null: return nil
    case .int(let i): return String(i)
    case .double(let d): return String(d)
    case .decimal(let d): return d.description
    case .string(let s): return s
    case .bool(let b): return b ? "true" : "false"
    case .date(let d): return DatabaseValue.formatDate(d, kind: .dateTime)
    case .data(let data): return "\\x" + data.map { String(format: "%02x", $0) }.joined()
    case .array(let items):
      return "{"
        + items.map { item in
          guard let item else { return "NULL" }
          return "\""
            + item.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
              of: "\"", with: "\\\"") + "\""
        }
        .joined(separator: ",") + "}"
    case .verbatim(let text): return text
    // Never sent (``holdsNUL(_:)`` refuses it): PostgreSQL's text is UTF-8.
    case .textBytes(let bytes): return DatabaseValue.escapedText(bytes)
    // A list is bound as an array of its items' text (the SQL builder expands `in` lists).
    case .list(let items): return text(.array(items.map(text)))
    }
  }
}
