import EnvKeys
import Foundation
import Qualifiers

/// Every error of a rule file or text; a file with any error loads nothing.
public struct RuleFileError: Error, Sendable, CustomStringConvertible {
  /// The errors, in line order.
  public var errors: [ParseError]
  /// Every error, one a line.
  public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension RuleParser {
  /// Parses rule text: one rule per line, a trailing `\` continues a line, `#` and `//` start
  /// comments. All or nothing.
  /// - Throws: ``RuleFileError`` with every error (file:line:column, line, caret).
  public func parseRules(_ text: String, file: String? = nil) throws(RuleFileError) -> [Rule] {
    try parsePlacedRules(text, file: file).map(\.rule)
  }

  /// Parses rule text like ``parseRules(_:file:)``, keeping where each rule was written.
  public func parsePlacedRules(_ text: String, file: String? = nil) throws(RuleFileError)
    -> [PlacedRule]
  {
    var rules: [PlacedRule] = []
    var errors: [ParseError] = []
    for (joined, line) in Self.ruleTexts(text) {
      do {
        if let rule = try parseRuleIfAny(joined, file: file, firstLine: line) {
          rules.append(PlacedRule(rule: rule, source: Self.source(joined, file: file, line: line)))
        }
      } catch {
        errors.append(error)
      }
    }
    guard errors.isEmpty else { throw RuleFileError(errors: errors) }
    return rules
  }

  /// The texts of `text`'s rules (a line, or lines continued by a trailing `\`, joined by
  /// newlines), each with its first line's number; blank and comment lines included.
  static func ruleTexts(_ text: String) -> [(text: String, line: Int)] {
    // Split on the byte: splitting Characters runs grapheme breaking over the whole text, and
    // stepping String.UTF8View's indices costs more than reading its bytes.
    var text = text
    let lines = text.withUTF8 { bytes -> [Substring] in
      var lines: [Substring] = []
      var lineStart = 0
      for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        lines.append(Substring(decoding: bytes[lineStart..<offset], as: UTF8.self))
        lineStart = offset + 1
      }
      lines.append(Substring(decoding: bytes[lineStart...], as: UTF8.self))
      return lines
    }
    var texts: [(text: String, line: Int)] = []
    var index = 0
    while index < lines.count {
      let start = index
      var chunk = [lines[index]]
      while continues(chunk[chunk.count - 1]), index + 1 < lines.count {
        index += 1
        chunk.append(lines[index])
      }
      index += 1
      texts.append((chunk.count == 1 ? String(chunk[0]) : chunk.joined(separator: "\n"), start + 1))
    }
    return texts
  }

  /// Where the rule `text`, starting on `line` of `file`, was written: at its first non-blank.
  static func source(_ text: String, file: String?, line: Int) -> RuleSource {
    let column =
      (text.unicodeScalars.firstIndex { $0 != " " && $0 != "\t" })
      .map { text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: $0) + 1 }
      ?? 1
    return RuleSource(file: file, location: SourceLocation(line: line, column: column), text: text)
  }

  /// Reads and parses a rule file (all or nothing).
  public func parseRuleFile(atPath path: String) throws -> [Rule] {
    try parsePlacedRuleFile(atPath: path).map(\.rule)
  }

  /// Reads and parses a rule file (all or nothing), keeping where each rule was written.
  public func parsePlacedRuleFile(atPath path: String) throws -> [PlacedRule] {
    let text: String
    do {
      text = try TextFile.read(path)
    } catch {
      throw RuleFileReadError(path: path, reason: error.reason)
    }
    return try parsePlacedRules(text, file: path)
  }

  /// Whether `line` ends with `\` (blanks after it allowed): read from its last bytes.
  private static func continues(_ line: Substring) -> Bool {
    for byte in line.utf8.reversed() {
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
        continue
      }
      return byte == UInt8(ascii: "\\")
    }
    return false
  }
}

/// A rule file that cannot be read.
public struct RuleFileReadError: Error, Sendable, CustomStringConvertible {
  /// The file's path as given.
  public var path: String
  /// Why it could not be read (`it is a directory`).
  public var reason: String
  /// `cannot read rule file PATH: REASON`.
  public var description: String { "cannot read rule file \(path): \(reason)" }
}

extension RuleModel {
  /// Parses `text` and adds every rule, or nothing when any line has an error.
  /// - Returns: The ambiguity warnings.
  @discardableResult
  public func load(_ text: String, file: String? = nil, parser: RuleParser = RuleParser())
    throws(RuleFileError)
    -> [RuleWarning]
  {
    add(contentsOf: try parser.parsePlacedRules(text, file: file))
  }
}
