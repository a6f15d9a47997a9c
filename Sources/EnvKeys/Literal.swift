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
    guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic
    else { return false }
    guard !keywords.contains(s.lowercased()) else { return false }
    return s.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }
}
