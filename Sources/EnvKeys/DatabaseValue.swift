import Foundation

/// A value as a database holds it: one enum for every adaptor, and the one value type from the
/// adaptor to the page. Qualifiers compare with it, the optimistic lock binds it, formatters
/// and renderers show it; ``Literal`` is only what the text parser reads before it becomes one.
///
/// A value is exact: the adaptors decode a column into its type's case only when that case
/// holds exactly what is stored, and otherwise keep the stored value as it is (text in an
/// INTEGER column stays `.string`, an epoch number in a DATE column stays `.int`, a date in a
/// form other than D2S's stays `.string`, PostgreSQL's `-Infinity` stays ``verbatim(_:)``).
/// Compared and bound back as it is, such a value round-trips byte for byte.
///
/// Read a value typed through its accessors (`int`, `double`, `decimal`, `text`, `bool`,
/// `date`, `data`, `array`: DatabaseValue+Accessors.swift), each nil unless the value holds
/// that type.
public enum DatabaseValue: Hashable, Sendable, CustomStringConvertible {
  /// SQL NULL.
  case null
  /// An integer column's value (SQLite's INTEGER, PostgreSQL's `smallint`, `integer`,
  /// `bigint`).
  case int(Int)
  /// A floating-point column's value (`REAL`, `double precision`).
  case double(Double)
  /// A numeric column's value, when `Decimal` holds it exactly (else ``verbatim(_:)``).
  case decimal(Decimal)
  /// Text, as stored.
  case string(String)
  /// A boolean column's value.
  case bool(Bool)
  /// A date, time or timestamp stored in one of D2S's forms (else ``string(_:)``).
  case date(Date)
  /// Bytes (`BLOB`, `bytea`).
  case data(Data)
  /// A one-dimensional array; nil elements are SQL NULLs.
  case array([String?])
  /// A value of the column's own type that no other case holds exactly, in the database's
  /// text (PostgreSQL's `-Infinity` and `NaN`, a `money` amount in a locale D2S does not read,
  /// a numeric with more digits than `Decimal` holds, or with trailing zeros `Decimal` drops):
  /// shown as it is, and bound back as text for the database to read.
  case verbatim(String)
  /// Text a column holds that is not UTF-8 (SQLite stores any bytes as TEXT): its bytes,
  /// shown with each byte that is not part of a UTF-8 character as `\xNN` (`a\xc0`), in
  /// JSON as base64 beside that text, and bound back as the same bytes of text.
  case textBytes(Data)
  /// A list of values: the right-hand side of a qualifier's `in`, or a key of several columns.
  /// No column holds one (a PostgreSQL array is ``array(_:)``).
  case list([DatabaseValue])

  /// The value as plain Swift (`nil`, `Int`, `Double`, `Decimal`, `String`, `Bool`, `Date`,
  /// `Data`, `[String?]`; a verbatim value as itself), as key-value coding and rules see it.
  public var anyValue: Any? { sendableValue.map { $0 as Any } }

  /// ``anyValue`` as a `Sendable` value (what `propertyValue` holds, so that a component's
  /// `value as? Int` works).
  public var sendableValue: (any Sendable)? {
    switch self {
    case .null: nil
    case .int(let v): v
    case .double(let v): v
    case .decimal(let v): v
    case .string(let v): v
    case .bool(let v): v
    case .date(let v): v
    case .data(let v): v
    case .array(let v): v
    // Itself, so that reading it back (``init(any:)``) keeps it verbatim, not text.
    case .verbatim, .textBytes: self
    case .list(let items): items.map(\.sendableValue)
    }
  }

  /// Whether the value is SQL NULL.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// An integer (a boolean as 0 or 1, text that is a number), else nil.
  public var intValue: Int? {
    switch self {
    case .int(let v): v
    case .bool(let b): b ? 1 : 0
    case .string(let s): Int(s)
    default: nil
    }
  }

  /// The text of a string value, else nil.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// A value from plain Swift (the inverse of ``anyValue``), or nil when the type has no
  /// database form.
  public init?(any value: Any?) {
    guard let value = KVC.unwrap(value) else {
      self = .null
      return
    }
    switch value {
    case let v as DatabaseValue: self = v
    case let v as String: self = .string(v)
    case let v as Bool: self = .bool(v)
    case let v as Int: self = .int(v)
    case let v as Decimal: self = .decimal(v)
    case let v as Double: self = .double(v)
    case let v as Date: self = .date(v)
    case let v as Data: self = .data(v)
    case let v as [String?]: self = .array(v)
    case let v as [String]: self = .array(v)
    case let v as any BinaryInteger:
      guard let i = Int(exactly: v) else { return nil }
      self = .int(i)
    default: return nil
    }
  }

  /// A short form for messages and logs (data as `<n bytes>`, NULL array elements as `NULL`).
  public var description: String {
    switch self {
    case .null: "NULL"
    case .int(let v): String(v)
    case .double(let v): String(v)
    case .decimal(let v): v.description
    case .string(let v): Literal.quote(v)
    case .bool(let v): v ? "true" : "false"
    case .date(let v): Literal.quote(ISODateText.format(v))
    case .data(let v): "<\(v.count) bytes>"
    case .array(let v):
      "(" + v.map { $0.map(Literal.quote) ?? "NULL" }.joined(separator: ", ") + ")"
    case .verbatim(let v): v
    case .textBytes(let v): Literal.quote(Self.escapedText(v))
    case .list(let items): "(" + items.map(\.description).joined(separator: ", ") + ")"
    }
  }

  /// Bytes as text: every well-formed UTF-8 sequence as its characters, every other byte as
  /// `\xNN` (`a\xc0`, `\x80`): distinct from U+FFFD itself, and the bytes can be read back.
  public static func escapedText(_ data: Data) -> String {
    let bytes = [UInt8](data)
    var out = ""
    var index = 0
    while index < bytes.count {
      let length = sequenceLength(bytes, at: index)
      if length > 0 {
        out += String(decoding: bytes[index..<index + length], as: UTF8.self)
        index += length
      } else {
        let hex = String(bytes[index], radix: 16)
        out += "\\x" + (hex.count == 1 ? "0" : "") + hex
        index += 1
      }
    }
    return out
  }

  /// The length of the well-formed UTF-8 sequence at `index` (Unicode's table 3-7), or 0.
  private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
    let first = bytes[index]
    if first < 0x80 { return 1 }
    let (length, low, high): (Int, UInt8, UInt8)
    switch first {
    case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
    case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
    case 0xED: (length, low, high) = (3, 0x80, 0x9F)
    case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
    case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
    case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
    default: return 0
    }
    guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else { return 0 }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
    return length
  }
}
