import D2SModel
import Qualifiers

extension CommandParser {
  /// `list ENTITY [with KEY, …] [where QUALIFIER] [order by KEY [asc|desc], …] [limit N]
  /// [offset N] [after|before POSITION]`, with the qualifier parsed at its column in `line`.
  static func list(_ rest: Substring, in line: String) throws -> REPLCommand {
    let body = try required(
      rest,
      "list ENTITY [with KEY, …] [where QUALIFIER] [order by KEY [asc|desc], …] [limit N] [offset N] [after|before POSITION]"
    )
    var (entity, tail) = splitWord(body)
    var clauses = ListClauses()
    if let (kind, token, before) = positionClause(tail, of: line) {
      if kind == "after" { clauses.after = token } else { clauses.before = token }
      tail = before
    } else if let last = tail.split(whereSeparator: \.isWhitespace).last,
      ["after", "before"].contains(last.lowercased())
    {
      throw REPLError(
        "\(last.lowercased()) needs a position (as `position` or a list's next gives)")
    }
    guard !tail.isEmpty else { return .list(entity: String(entity), clauses: clauses) }
    let marks = try clauseMarks(in: tail, of: line)
    guard let first = marks.first, first.start == tail.startIndex else {
      throw REPLError("expected with, where, search, order by, limit or offset after \(entity)")
    }
    var bodies: [(kind: String, text: Substring)] = []
    for (position, mark) in marks.enumerated() {
      let end = position + 1 < marks.count ? marks[position + 1].start : tail.endIndex
      bodies.append((mark.kind, trimmed(line[min(mark.body, end)..<end])))
    }
    for (kind, text) in bodies {
      guard !text.isEmpty else { throw REPLError("'\(kind)' needs something after it") }
      switch kind {
      case "where":
        guard clauses.qualifier == nil else { throw REPLError("only one where clause") }
        clauses.qualifier = try QualifierParser.parse(line, range: text.startIndex..<text.endIndex)
      case "order":
        guard clauses.orderings.isEmpty else { throw REPLError("only one order by clause") }
        clauses.orderings = try orderings(text)
      case "search":
        guard clauses.search == nil else { throw REPLError("only one search clause") }
        clauses.search = unquote(text)
      case "with":
        guard clauses.columns.isEmpty else { throw REPLError("only one with clause") }
        clauses.columns = try keys(text, usage: "with KEY, …", directions: false).map(\.keyPath)
      default:
        guard let n = Int(text), n >= 0, n <= Int(Int32.max) else {
          throw REPLError("\(kind) must be a whole number from 0 to \(Int32.max)")
        }
        guard (kind == "limit" ? clauses.limit : clauses.offset) == nil else {
          throw REPLError("only one \(kind) clause")
        }
        if kind == "limit" { clauses.limit = n } else { clauses.offset = n }
      }
    }
    return .list(entity: String(entity), clauses: clauses)
  }

  /// The `after POSITION` or `before POSITION` that ends `tail`, with what comes before it. A
  /// position is one word of letters, digits and `.,%_~-` (percent-encoded values); the clause
  /// is taken only where the rest still reads as clauses, so `where note = 'x after y'` keeps
  /// its quotes.
  private static func positionClause(_ tail: Substring, of line: String) -> (
    kind: String, token: String, before: Substring
  )? {
    let words = tail.split(whereSeparator: \.isWhitespace)
    guard words.count >= 2, let token = words.last else { return nil }
    let kind = words[words.count - 2].lowercased()
    guard kind == "after" || kind == "before",
      token.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || ".,%_~-".unicodeScalars.contains($0)
      })
    else { return nil }
    let before = trimmed(tail[..<words[words.count - 2].startIndex])
    if !before.isEmpty, (try? clauseMarks(in: before, of: line)) == nil { return nil }
    return (kind, String(token), before)
  }

  /// The top-level clause keywords of `tail` (never inside quotes or parentheses): where each
  /// starts and where its body starts, as indices of `line`.
  private static func clauseMarks(
    in tail: Substring, of line: String
  ) throws -> [(kind: String, start: String.Index, body: String.Index)] {
    let tokens = try Lexer(line, allowsComments: false, range: tail.startIndex..<tail.endIndex)
      .tokenize()
    let scalars = line.unicodeScalars
    func index(_ token: Token) -> String.Index {
      scalars.index(scalars.startIndex, offsetBy: token.offset)
    }
    var marks: [(kind: String, start: String.Index, body: String.Index)] = []
    var depth = 0
    for (position, token) in tokens.enumerated() {
      switch token.kind {
      case .symbol("("), .symbol("["), .symbol("{"): depth += 1
      case .symbol(")"), .symbol("]"), .symbol("}"): depth -= 1
      case .identifier(let word) where depth == 0:
        let lower = word.lowercased()
        if ["where", "with", "limit", "offset", "search"].contains(lower) {
          marks.append((lower, index(token), index(tokens[position + 1])))
        } else if lower == "order", position + 1 < tokens.count,
          case .identifier(let by) = tokens[position + 1].kind, by.lowercased() == "by"
        {
          let body = position + 2 < tokens.count ? index(tokens[position + 2]) : tail.endIndex
          marks.append(("order", index(token), body))
        }
      default: break
      }
    }
    return marks
  }

  /// A key path as a command stores it (``KVCPath/quotedDescription``): dotted, with a name
  /// that holds a dot or is a keyword in backticks (`` `na.me` ``, `` `from` ``).
  static func keyPath(_ text: String) -> KVCPath {
    guard text.contains("`"), let tokens = try? Lexer(text, allowsComments: false).tokenize(),
      tokens.count == 2, tokens[1].kind == .end
    else { return KVCPath(text) }
    switch tokens[0].kind {
    case .identifier(let name): return KVCPath(name)
    case .quotedPath(let components): return KVCPath(components: components)
    default: return KVCPath(text)
    }
  }

  /// `KEY [asc|desc], …`; a key may be in backticks (`` `order` desc ``).
  private static func orderings(_ text: Substring) throws -> [SortOrdering] {
    try keys(text, usage: "order by KEY [asc|desc], …", directions: true)
  }

  /// `KEY, …`, each key in backticks where it needs them, and with `directions`, each
  /// followed by an optional `asc` or `desc`.
  private static func keys(
    _ text: Substring, usage: String, directions: Bool
  ) throws -> [SortOrdering] {
    let tokens = try Lexer(String(text), allowsComments: false).tokenize()
    var orderings: [SortOrdering] = []
    var index = 0
    while index < tokens.count, tokens[index].kind != .end {
      let key: KVCPath
      switch tokens[index].kind {
      case .identifier(let name) where !name.hasPrefix("@"): key = KVCPath(name)
      case .quotedPath(let components): key = KVCPath(components: components)
      default: throw REPLError("usage: \(usage)")
      }
      index += 1
      var ascending = true
      if directions, case .identifier(let word) = tokens[index].kind {
        guard ["asc", "desc"].contains(word.lowercased()) else {
          throw REPLError("expected asc or desc after \(key.quotedDescription)")
        }
        ascending = word.lowercased() == "asc"
        index += 1
      }
      // As typed, backticks kept: a name with a dot stays one name (``keyPath(_:)``).
      orderings.append(SortOrdering(key.quotedDescription, ascending: ascending))
      if tokens[index].isSymbol(","), tokens[index + 1].kind != .end {
        index += 1
      } else if tokens[index].kind != .end {
        throw REPLError("usage: \(usage)")
      }
    }
    guard !orderings.isEmpty else { throw REPLError("usage: \(usage)") }
    return orderings
  }
}
