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
    case 700, 701: return Double(text).map { .double($0) } ?? .string(text)
    case 1700: return Decimal(string: text, locale: posix).map { .decimal($0) } ?? .string(text)
    case 1082: return DatabaseValue.parseDate(text, kind: .date).map { .date($0) } ?? .string(text)
    case 1114, 1184: return parseTimestamp(text).map { .date($0) } ?? .string(text)
    case 17: return decodeBytea(text).map { .data($0) } ?? .string(text)
    default: return .string(text)
    }
  }

  /// The POSIX locale (a dot for the decimal separator), shared.
  static var posix: Locale { DecimalText.posix }

  /// A text value as `attribute`'s type.
  static func decode(_ text: String, as attribute: Attribute) -> DatabaseValue {
    switch attribute.valueType {
    case .string: return .string(attribute.isBlankPadded ? trimTrailingBlanks(text) : text)
    case .int: return Int(text).map { .int($0) } ?? .string(text)
    case .double: return Double(text).map { .double($0) } ?? .string(text)
    case .decimal: return Decimal(string: text, locale: posix).map { .decimal($0) } ?? .string(text)
    case .bool: return text == "t" ? .bool(true) : text == "f" ? .bool(false) : .string(text)
    case .date:
      let date =
        attribute.dateKind == .dateTime
        ? parseTimestamp(text) : DatabaseValue.parseDate(text, kind: attribute.dateKind)
      return date.map { .date($0) } ?? .string(text)
    case .data: return decodeBytea(text).map { .data($0) } ?? .string(text)
    case .array: return .array(parseArray(text))
    }
  }

  static func trimTrailingBlanks(_ text: String) -> String {
    var end = text.endIndex
    while end > text.startIndex, text[text.index(before: end)] == " " {
      end = text.index(before: end)
    }
    return String(text[..<end])
  }

  /// `2006-02-15 04:34:33[.123456][+00[:00]]` as UTC.
  static func parseTimestamp(_ text: String) -> Date? {
    var body = Substring(text)
    // Drop a zone offset (the session runs in UTC, so it is +00).
    if let plus = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
      body.distance(from: body.startIndex, to: plus) > 10
    {
      body = body[..<plus]
    }
    return ISODateText.parse(String(body))
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

  /// `{a,"b c","d\"e"}` → `["a", "b c", "d\"e"]` (one dimension; NULL elements as "NULL").
  static func parseArray(_ text: String) -> [String] {
    var items: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    var started = false
    for c in text.dropFirst().dropLast() {
      if escaped {
        current.append(c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if c == "\"" {
        quoted.toggle()
        started = true
      } else if c == "," && !quoted {
        items.append(current)
        current = ""
        started = false
      } else {
        current.append(c)
        started = true
      }
    }
    if started || !current.isEmpty || !items.isEmpty { items.append(current) }
    return items
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
        + items.map {
          "\""
            + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
              of: "\"", with: "\\\"") + "\""
        }
        .joined(separator: ",") + "}"
    }
  }
}
