import EnvKeys

/// Parses qualifier text: `task = 'edit' AND NOT (entity.name in ('Staff', 'Store'))`.
///
/// Precedence: `NOT` binds tighter than `AND`, `AND` tighter than `OR`; keywords in any case.
public enum QualifierParser {
  /// Parses a whole qualifier.
  /// - Throws: ``ParseError`` with the line, column and a caret.
  /// - Parameter range: The part of `text` that holds the qualifier (all of it when nil); an
  ///   error points into the whole of `text`, at the column where it is.
  public static func parse(
    _ text: String, file: String? = nil, range: Range<String.Index>? = nil
  ) throws(ParseError) -> Qualifier {
    let lexer = Lexer(text, file: file, allowsComments: false, range: range)
    var grammar = Grammar(tokens: try lexer.tokenize(), lexer: lexer)
    let qualifier = try grammar.parseQualifier()
    try grammar.expectEnd()
    return qualifier
  }

  /// Parses a single literal (`'x'`, `42`, `('a', 'b')`, `{ a = 1 }`, `true`, `nil`).
  /// - Parameter range: The part of `text` that holds the literal (all of it when nil).
  public static func parseLiteral(_ text: String, range: Range<String.Index>? = nil)
    throws(ParseError) -> Literal
  {
    let lexer = Lexer(text, allowsComments: false, range: range)
    var grammar = Grammar(tokens: try lexer.tokenize(), lexer: lexer)
    let literal = try grammar.parseLiteral()
    try grammar.expectEnd()
    return literal
  }
}

/// The recursive-descent grammar over a token stream, shared with the rule parser.
package struct Grammar {
  /// The deepest nesting of parentheses, `NOT`s, lists and dictionaries accepted.
  package static let maximumDepth = 256

  package let tokens: [Token]
  package var index = 0
  package let lexer: Lexer
  var depth = 0
  /// Checks each key path read (rules require exposed keys); returns an error message.
  package var keyPathValidator: ((KVCPath) -> String?)?

  package init(tokens: [Token], lexer: Lexer) {
    self.tokens = tokens
    self.lexer = lexer
  }

  package var current: Token { tokens[index] }
  package var atEnd: Bool { current.kind == .end }

  package mutating func advance() { if index < tokens.count - 1 { index += 1 } }

  package func error(_ message: String, at token: Token? = nil) -> ParseError {
    lexer.error(message, at: (token ?? current).location)
  }

  package func expectEnd() throws(ParseError) {
    guard atEnd else {
      throw error("unexpected \(current.display) after the end of the expression")
    }
  }

  mutating func enter() throws(ParseError) {
    depth += 1
    if depth > Grammar.maximumDepth {
      throw error("nesting is deeper than the limit of \(Grammar.maximumDepth)")
    }
  }

  // MARK: - Qualifiers

  /// `or := and (OR and)*`
  package mutating func parseQualifier() throws(ParseError) -> Qualifier {
    var parts = [try parseConjunction()]
    while current.keyword == "or" || current.isSymbol("||") {
      advance()
      parts.append(try parseConjunction())
    }
    return .any(parts)
  }

  mutating func parseConjunction() throws(ParseError) -> Qualifier {
    var parts = [try parseUnary()]
    while current.keyword == "and" || current.isSymbol("&&") {
      advance()
      parts.append(try parseUnary())
    }
    return .all(parts)
  }

  mutating func parseUnary() throws(ParseError) -> Qualifier {
    if current.keyword == "not" || current.isSymbol("!") {
      try enter()
      defer { depth -= 1 }
      advance()
      return .not(try parseUnary())
    }
    return try parsePrimary()
  }

  mutating func parsePrimary() throws(ParseError) -> Qualifier {
    let token = current
    switch token.kind {
    case .symbol("("):
      try enter()
      defer { depth -= 1 }
      advance()
      let inner = try parseQualifier()
      guard current.isSymbol(")") else {
        throw error("expected ')' to close the '(' at \(token.location)")
      }
      advance()
      return inner
    case .boolConstant(let value):
      advance()
      return .constant(value)
    case .identifier, .quotedPath:
      return try parseComparison()
    case .end:
      throw error("expected a condition, found end of input")
    default:
      throw error("expected a key path, '(' or *true*, found \(token.display)")
    }
  }

  /// A key path token that is not a keyword or a computation name.
  package mutating func parseKeyPath(role: String = "key path") throws(ParseError) -> KVCPath {
    if case .quotedPath(let components) = current.kind {
      let path = KVCPath(components: components)
      if let message = keyPathValidator?(path) { throw error(message) }
      advance()
      return path
    }
    guard case .identifier(let name) = current.kind else {
      throw error("expected a \(role), found \(current.display)")
    }
    if let keyword = current.keyword {
      throw error("'\(keyword)' is a keyword and cannot be a \(role); quote it if it is a string")
    }
    if name.hasPrefix("@") { throw error("a computation (\(name)) cannot be a \(role)") }
    let path = KVCPath(name)
    if let message = keyPathValidator?(path) { throw error(message) }
    advance()
    return path
  }

  mutating func parseComparison() throws(ParseError) -> Qualifier {
    let path = try parseKeyPath()
    let opToken = current
    let op: ComparisonOperator
    switch opToken.kind {
    case .symbol("="), .symbol("=="): op = .equal
    case .symbol("!="), .symbol("<>"): op = .notEqual
    case .symbol("<"): op = .lessThan
    case .symbol("<="): op = .lessThanOrEqual
    case .symbol(">"): op = .greaterThan
    case .symbol(">="): op = .greaterThanOrEqual
    case .identifier:
      switch opToken.keyword {
      case "like": op = .like
      case "ilike": op = .caseInsensitiveLike
      case "in": op = .in
      case "is":
        advance()
        var negated = false
        if current.keyword == "not" {
          negated = true
          advance()
        }
        guard current.keyword == "nil" || current.keyword == "null" else {
          throw error("expected nil or null after 'is\(negated ? " not" : "")'")
        }
        advance()
        return .comparison(path, negated ? .notEqual : .equal, .null)
      case "and", "or":
        return .comparison(path, .equal, .bool(true))  // a bare key means key = true
      default:
        throw error(
          "unknown operator '\(opToken.display)' (use = != < <= > >= like ilike in, is nil)")
      }
    default:
      // A bare key: `isArchived AND …` means `isArchived = true`.
      return .comparison(path, .equal, .bool(true))
    }
    advance()
    if current.keyword == nil, current.isKeyPath {
      let rhs = try parseKeyPath()
      return .keyComparison(path, op, rhs)
    }
    let valueToken = current
    guard let value = DatabaseValue(literal: try parseLiteral()) else {
      throw error("a dictionary cannot be compared; compare with a value or a list", at: valueToken)
    }
    switch op {
    case .in:
      guard case .list = value else {
        throw error("expected a list after 'in', like ('a', 'b')", at: valueToken)
      }
    case .like, .caseInsensitiveLike:
      guard case .string = value else {
        throw error("expected a quoted pattern after '\(op.rawValue)'", at: valueToken)
      }
    default: break
    }
    return .comparison(path, op, value)
  }

  // MARK: - Literals

  /// A literal value; an unquoted name is an error that suggests quoting.
  package mutating func parseLiteral() throws(ParseError) -> Literal {
    let token = current
    switch token.kind {
    case .string(let s):
      advance()
      return .string(s)
    case .int(let i):
      advance()
      return .int(i)
    case .decimal(let d):
      advance()
      return .decimal(d)
    case .identifier(let name):
      switch token.keyword {
      case "true", "yes":
        advance()
        return .bool(true)
      case "false", "no":
        advance()
        return .bool(false)
      case "nil", "null":
        advance()
        return .null
      default:
        throw error(
          "expected a value, found the name '\(name)'; quote it if it is a string ('\(name)')")
      }
    case .symbol("("), .symbol("["):
      return .list(try parseList())
    case .symbol("{"):
      return .dictionary(try parseDictionary())
    case .end:
      throw error("expected a value, found end of input")
    default:
      throw error("expected a value, found \(token.display)")
    }
  }

  mutating func parseList() throws(ParseError) -> [Literal] {
    let open = current
    let close = open.isSymbol("(") ? ")" : "]"
    try enter()
    defer { depth -= 1 }
    advance()
    var items: [Literal] = []
    while !current.isSymbol(close) {
      items.append(try parseLiteral())
      if current.isSymbol(",") {
        advance()
        continue
      }
      guard current.isSymbol(close) else {
        throw error("expected ',' or '\(close)' in the list opened at \(open.location)")
      }
    }
    advance()
    return items
  }

  mutating func parseDictionary() throws(ParseError) -> [Literal.Entry] {
    let open = current
    try enter()
    defer { depth -= 1 }
    advance()
    var entries: [Literal.Entry] = []
    while !current.isSymbol("}") {
      let key: String
      switch current.kind {
      case .identifier(let name) where !name.utf8.contains(UInt8(ascii: ".")): key = name
      case .string(let s): key = s
      default: throw error("expected a dictionary key, found \(current.display)")
      }
      advance()
      guard current.isSymbol("=") || current.isSymbol(":") else {
        throw error("expected '=' or ':' after the dictionary key '\(key)'")
      }
      advance()
      entries.append(Literal.Entry(key: key, value: try parseLiteral()))
      if current.isSymbol(";") || current.isSymbol(",") {
        advance()
        continue
      }
      guard current.isSymbol("}") else {
        throw error("expected ';' or '}' in the dictionary opened at \(open.location)")
      }
    }
    advance()
    return entries
  }
}
