import Qualifiers
import Synchronization

/// Where a rule of rule text was written: its file (when it came from one), the line and
/// column where it starts, and its text (for tools that point into it, such as `lint`).
public struct RuleSource: Sendable, Equatable, CustomStringConvertible {
  /// The file, or nil for text typed in the REPL or given as a string.
  public var file: String?
  /// Where the rule starts (1-based line and column).
  public var location: SourceLocation
  /// The rule's text, its continued lines joined by newlines.
  public var text: String

  /// A source from its parts.
  public init(file: String?, location: SourceLocation, text: String) {
    self.file = file
    self.location = location
    self.text = text
  }

  /// `FILE:LINE` (or `line LINE` without a file).
  public var description: String {
    file.map { "\($0):\(location.line)" } ?? "line \(location.line)"
  }

  /// Where a token of the rule's text starts, the first one `matches` accepts; the rule's
  /// start when there is none.
  package func location(ofFirstToken matches: (Token) -> Bool) -> SourceLocation {
    let lexer = Lexer(text, firstLine: location.line, file: file)
    guard let tokens = try? lexer.tokenize(), let token = tokens.first(where: matches) else {
      return location
    }
    return token.location
  }
}

/// A parsed rule with the place it was written.
public struct PlacedRule: Sendable {
  /// The rule.
  public var rule: Rule
  /// Where it was written.
  public var source: RuleSource
}

/// The sources of a model's rules, by rule number.
final class RuleSources: Sendable {
  private let sources = Mutex<[Int: RuleSource]>([:])

  func set(_ source: RuleSource, for id: Int) { sources.withLock { $0[id] = source } }
  func source(for id: Int) -> RuleSource? { sources.withLock { $0[id] } }
}

extension RuleModel {
  /// Adds placed rules in order, remembering where each was written; returns the ambiguity
  /// warnings.
  @discardableResult
  public func add(contentsOf placed: [PlacedRule]) -> [RuleWarning] {
    placed.flatMap { placed in
      let (id, warnings) = add(placed.rule)
      sources.set(placed.source, for: id)
      return warnings
    }
  }

  /// Where rule number `id` was written, for rules added from rule text with their places.
  public func source(ofRule id: Int) -> RuleSource? { sources.source(for: id) }
}

extension RuleEngine {
  /// Where `numbered` was written, when its model knows.
  public func source(of numbered: NumberedRule) -> RuleSource? {
    models.first { $0.origin == numbered.origin }?.source(ofRule: numbered.id)
  }
}
