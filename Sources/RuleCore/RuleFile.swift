import Foundation
import Qualifiers

/// Every error of a rule file or text; a file with any error loads nothing.
public struct RuleFileError: Error, Sendable, CustomStringConvertible {
  /// The errors, in line order.
  public var errors: [ParseError]
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
    // Split on the byte: splitting Characters runs grapheme breaking over the whole text.
    var lines: [Substring] = []
    var lineStart = text.utf8.startIndex
    for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
      lines.append(text[lineStart..<index])
      lineStart = text.utf8.index(after: index)
    }
    lines.append(text[lineStart...])
    var index = 0
    while index < lines.count {
      let start = index
      var chunk = [lines[index]]
      while continues(chunk[chunk.count - 1]), index + 1 < lines.count {
        index += 1
        chunk.append(lines[index])
      }
      index += 1
      do {
        let joined = chunk.count == 1 ? String(chunk[0]) : chunk.joined(separator: "\n")
        if let rule = try parseRuleIfAny(joined, file: file, firstLine: start + 1) {
          let column =
            (joined.unicodeScalars.firstIndex { $0 != " " && $0 != "\t" })
            .map {
              joined.unicodeScalars.distance(from: joined.unicodeScalars.startIndex, to: $0) + 1
            } ?? 1
          let place = RuleSource(
            file: file, location: SourceLocation(line: start + 1, column: column), text: joined)
          rules.append(PlacedRule(rule: rule, source: place))
        }
      } catch {
        errors.append(error)
      }
    }
    guard errors.isEmpty else { throw RuleFileError(errors: errors) }
    return rules
  }

  /// Reads and parses a rule file (all or nothing).
  public func parseRuleFile(atPath path: String) throws -> [Rule] {
    try parsePlacedRuleFile(atPath: path).map(\.rule)
  }

  /// Reads and parses a rule file (all or nothing), keeping where each rule was written.
  public func parsePlacedRuleFile(atPath path: String) throws -> [PlacedRule] {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw RuleFileReadError(path: path, reason: (error as NSError).localizedDescription)
    }
    return try parsePlacedRules(text, file: path)
  }

  private func continues(_ line: Substring) -> Bool {
    line.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.first == "\\"
  }
}

/// A rule file that cannot be read.
public struct RuleFileReadError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
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
