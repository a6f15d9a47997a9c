import EnvKeys
import Qualifiers

/// Parses rule text: `PREDICATE => KEY = VALUE ; PRIORITY`.
///
/// ```swift
/// let parser = RuleParser(registry: registry)
/// let rule = try parser.parseRule("task = 'list' => nextTask = 'inspect' ; low")
/// ```
/// Names (on both sides) must be exposed keys; constants are coerced to the key's type; an
/// unquoted name on the right is a key path, evaluated at lookup time.
public struct RuleParser: Sendable {
  /// The exposed keys rules may name.
  public let registry: D2SContextKVC
  /// The `@name` computations rules may use; nil accepts any name.
  public let computations: RuleComputations?

  public init(registry: D2SContextKVC = .shared, computations: RuleComputations? = nil) {
    self.registry = registry
    self.computations = computations
  }

  /// Parses one rule (which may span lines joined by a trailing `\`).
  /// - Throws: ``ParseError`` with line, column and caret; nil-returning for blank/comment text
  ///   is ``parseRuleIfAny(_:file:firstLine:)``.
  /// - Parameter range: The part of `text` that holds the rule (all of it when nil); an error
  ///   points into the whole of `text`, at the column where it is.
  public func parseRule(
    _ text: String, file: String? = nil, firstLine: Int = 1, range: Range<String.Index>? = nil
  ) throws(ParseError) -> Rule {
    guard let rule = try parseRuleIfAny(text, file: file, firstLine: firstLine, range: range) else {
      let lexer = Lexer(text, firstLine: firstLine, file: file)
      let column =
        range.map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
        ?? 1
      throw lexer.error(
        "expected a rule, found nothing", at: SourceLocation(line: firstLine, column: column))
    }
    return rule
  }

  /// Parses one rule, or returns nil when the text holds only blanks and comments.
  public func parseRuleIfAny(
    _ text: String, file: String? = nil, firstLine: Int = 1, range: Range<String.Index>? = nil
  ) throws(ParseError) -> Rule? {
    let lexer = Lexer(text, firstLine: firstLine, file: file, range: range)
    let tokens = try lexer.tokenize()
    if tokens.count == 1 { return nil }
    var grammar = Grammar(tokens: tokens, lexer: lexer)
    grammar.keyPathValidator = { path in validate(path) }

    // Find the top-level `=>` and `;` (outside brackets) before parsing anything.
    var depth = 0
    var arrow: Int?
    var semicolon: Int?
    for (index, token) in tokens.enumerated() {
      switch token.kind {
      case .symbol("("), .symbol("["), .symbol("{"): depth += 1
      case .symbol(")"), .symbol("]"), .symbol("}"): depth -= 1
      case .symbol("=>") where depth == 0 && arrow == nil: arrow = index
      case .symbol(";") where depth == 0 && semicolon == nil: semicolon = index
      default: break
      }
    }
    if let arrow, let semicolon, semicolon < arrow {
      throw grammar.error(
        "';' (the priority) must come after the rule's value", at: tokens[semicolon])
    }

    var predicate = Qualifier.constant(true)
    if let arrow {
      guard arrow > 0 else {
        throw grammar.error("expected a condition before '=>'", at: tokens[arrow])
      }
      predicate = try grammar.parseQualifier()
      guard grammar.index == arrow else {
        throw grammar.error(
          "expected AND, OR or '=>' after the condition, found \(grammar.current.display)")
      }
      grammar.advance()
    }

    // KEY = VALUE (or KEY <= VALUE)
    let keyToken = grammar.current
    guard case .identifier(let keyName) = keyToken.kind, !keyName.utf8.contains(UInt8(ascii: ".")),
      keyToken.keyword == nil,
      !keyName.hasPrefix("@")
    else {
      throw grammar.error("expected the name of the key to assign, found \(keyToken.display)")
    }
    guard let key = registry.key(named: keyName) else {
      throw grammar.error(
        UnknownKeyError(name: keyName, suggestions: registry.suggestions(for: keyName)).description,
        at: keyToken)
    }
    grammar.advance()
    guard grammar.current.isSymbol("=") || grammar.current.isSymbol("<=") else {
      throw grammar.error("expected '=' after '\(keyName)'")
    }
    grammar.advance()
    let valueToken = grammar.current
    let value = try parseValue(&grammar)
    let end = semicolon ?? tokens.count - 1
    guard grammar.index == end else {
      throw grammar.error("unexpected \(grammar.current.display) after the value")
    }

    var priority = Rule.Priority.normal
    if semicolon != nil {
      grammar.advance()
      priority = try parsePriority(&grammar)
    }

    do {
      return try Rule(predicate: predicate, key: key, value: value, priority: priority)
    } catch {
      throw grammar.error(error.description, at: valueToken)
    }
  }

  /// Checks that a key path starts at an exposed key.
  func validate(_ path: KVCPath) -> String? {
    if registry.key(named: path.first) != nil { return nil }
    var message = UnknownKeyError(
      name: path.first, suggestions: registry.suggestions(for: path.first)
    ).description
    message += "; quote it if it is a string ('\(path)')"
    return message
  }

  private func parseValue(_ grammar: inout Grammar) throws(ParseError) -> RuleValue {
    let token = grammar.current
    if token.keyword == "not" || token.isSymbol("!") {
      grammar.advance()
      return .negatedKeyPath(try grammar.parseKeyPath())
    }
    if case .identifier(let name) = token.kind, token.keyword == nil {
      if name.hasPrefix("@") {
        let computation = String(name.dropFirst())
        guard !computation.utf8.contains(UInt8(ascii: ".")), !computation.isEmpty else {
          throw grammar.error("a computation name is '@' and a plain name, like @prettyPropertyKey")
        }
        if let computations, computations.computation(named: computation) == nil {
          throw grammar.error("unknown computation '@\(computation)'")
        }
        grammar.advance()
        return .computation(computation)
      }
      return .keyPath(try grammar.parseKeyPath())
    }
    if case .quotedPath = token.kind { return .keyPath(try grammar.parseKeyPath()) }
    return .constant(try grammar.parseLiteral())
  }

  private func parsePriority(_ grammar: inout Grammar) throws(ParseError) -> Rule.Priority {
    let start = grammar.current
    if case .int(let value) = start.kind {
      grammar.advance()
      try grammar.expectEnd()
      return Rule.Priority(value)
    }
    var words: [String] = []
    while case .identifier(let word) = grammar.current.kind {
      words.append(word)
      grammar.advance()
    }
    try grammar.expectEnd()
    // Joined by hand: the generic `joined(separator:)` is not specialised for an array here.
    let name = words.dropFirst().reduce(words.first ?? "") { $0 + " " + $1 }
    guard !words.isEmpty, let priority = Rule.Priority(name: name) else {
      throw grammar.error(
        "unknown priority \(words.isEmpty ? start.display : "'\(name)'") (use important, very high, high, normal, low, very low, fallback or an integer)",
        at: start)
    }
    return priority
  }
}
