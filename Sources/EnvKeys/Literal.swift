import Foundation

/// A constant as written in rule text, qualifiers and REPL commands.
///
/// Numbers with a fraction are `Decimal`, others `Int`; dates are strings that a key of type
/// `Date` coerces. Printing (`description`) gives canonical text that parses back to the same
/// literal.
public enum Literal: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case decimal(Decimal)
  case string(String)
  case list([Literal])
  case dictionary([Entry])

  /// One `key = value` pair of a dictionary literal, in source order.
  public struct Entry: Hashable, Sendable {
    public var key: String
    public var value: Literal
    public init(key: String, value: Literal) {
      self.key = key
      self.value = value
    }
  }

  /// A short name of the literal's kind for error messages.
  public var kindName: String {
    switch self {
    case .null: "nil"
    case .bool: "a boolean"
    case .int: "an integer"
    case .decimal: "a decimal"
    case .string: "a string"
    case .list: "a list"
    case .dictionary: "a dictionary"
    }
  }

  /// The literal as a plain Swift value (`nil`, `Bool`, `Int`, `Decimal`, `String`,
  /// `[Any?]`, `[String: Any?]`), as in-memory comparisons use it.
  public var anyValue: Any? {
    switch self {
    case .null: nil
    case .bool(let b): b
    case .int(let i): i
    case .decimal(let d): d
    case .string(let s): s
    case .list(let items): items.map(\.anyValue)
    case .dictionary(let entries):
      Dictionary(entries.map { ($0.key, $0.value.anyValue) }, uniquingKeysWith: { _, last in last })
    }
  }
}

// MARK: - Printing

extension Literal: CustomStringConvertible {
  /// Canonical text: single-quoted strings, `('a', 'b')`, `{ a = 1; b = 'x' }`.
  public var description: String {
    switch self {
    case .null: return "nil"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .decimal(let d): return Literal.format(decimal: d)
    case .string(let s): return Literal.quote(s)
    case .list(let items): return "(" + items.map(\.description).joined(separator: ", ") + ")"
    case .dictionary(let entries):
      if entries.isEmpty { return "{}" }
      let body = entries.map { entry in
        let key = Literal.isPlainIdentifier(entry.key) ? entry.key : Literal.quote(entry.key)
        return "\(key) = \(entry.value)"
      }
      return "{ " + body.joined(separator: "; ") + " }"
    }
  }

  /// A decimal in plain notation that lexes back as a decimal (`1.0`, never `1`).
  public static func format(decimal: Decimal) -> String {
    var text = decimal.description
    if !text.contains(".") && !text.contains("e") && !text.contains("E") { text += ".0" }
    return text
  }

  /// Whether `text` may be typed without quotes where a key is expected (`inspect`, `edit`,
  /// `object.KEY = VALUE`): a uuid or a code such as `550e8400-e29b-41d4-a716-446655440000` or
  /// `A-12`: letters, digits, `-`, `_`, `.` and `:`, with at least one digit, and not a number
  /// (a number is read as a number).
  public static func isBareKey(_ text: String) -> Bool {
    var digits = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
        continue
      default: return false
      }
    }
    return digits > 0 && Double(text) == nil
  }

  /// A key value as a person types it: a bare key (``isBareKey(_:)``) as it is, other text
  /// quoted, numbers as numbers.
  public static func keyText(_ value: Literal) -> String {
    if case .string(let s) = value, isBareKey(s) { return s }
    return value.description
  }

  /// `s` in single quotes with `\'`, `\\`, `\n`, `\t` escaped.
  public static func quote(_ s: String) -> String {
    var out = "'"
    for c in s.unicodeScalars {
      switch c {
      case "'": out += "\\'"
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(c)
      }
    }
    return out + "'"
  }

  /// Words that are keywords of the rule grammar and so cannot be bare keys.
  public static let keywords: Set<String> = [
    "and", "or", "not", "like", "ilike", "in", "is", "nil", "null", "true", "false", "yes", "no",
  ]

  /// Whether `s` can stand unquoted as a dictionary key or a key path component.
  public static func isPlainIdentifier(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || isLetter(first) else {
      return false
    }
    guard !keywords.contains(s.lowercased()) else { return false }
    return s.unicodeScalars.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
  }

  /// Whether `scalar` is a letter: ASCII by range, others by Unicode's property (a table
  /// look-up that printing every rule's key paths would otherwise make for each ASCII letter).
  @inline(__always)
  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      ? ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
      : scalar.properties.isAlphabetic
  }
}
