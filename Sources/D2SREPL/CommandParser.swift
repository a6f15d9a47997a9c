import EnvKeys
import Qualifiers

/// Parses command lines: keywords in any case; the rest of a line kept as text where another
/// grammar (rules, qualifiers) reads it.
public enum CommandParser {
  /// The words `help` knows, in the order it lists them.
  public static let commandWords = [
    "open", "entities", "list", "next", "prev", "inspect", "edit", "new", "choose", "save", "revert", "delete", "follow",
    "login", "logout", "unset", "show", "explain", "rule", "rules", "drop", "load", "write", "source", "render",
    "context", "keys", "looks", "plugins", "help", "quit",
  ]

  /// The command on `line`, or nil for a blank line or a comment.
  public static func parse(_ line: String) throws -> REPLCommand? {
    guard line.utf8.count <= Lexer.maximumLineLength else {
      throw REPLError("line is longer than the limit of \(Lexer.maximumLineLength) bytes")
    }
    let text = stripComment(line).trimmingCharacters(in: .whitespaces)
    if text.isEmpty { return nil }
    let (word, rest) = splitWord(text)
    switch word.lowercased() {
    case "open": return .open(try required(rest, "open DATABASE"))
    case "entities": try none(rest, "entities"); return .entities
    case "list": return try list(rest)
    case "next": try none(rest, "next"); return .next
    case "prev": try none(rest, "prev"); return .prev
    case "inspect": let (e, k) = try entityAndKey(rest, "inspect ENTITY KEY"); return .inspect(entity: e, key: k)
    case "edit": let (e, k) = try entityAndKey(rest, "edit ENTITY KEY"); return .edit(entity: e, key: k)
    case "delete": let (e, k) = try entityAndKey(rest, "delete ENTITY KEY"); return .delete(entity: e, key: k)
    case "new": return .new(entity: try required(rest, "new ENTITY"))
    case "choose":
      let body = try required(rest, "choose RELATIONSHIP [where QUALIFIER]")
      let (relationship, tail) = splitWord(body)
      if tail.isEmpty { return .choose(relationship: relationship, qualifier: nil) }
      let (keyword, qualifier) = splitWord(tail)
      guard keyword.lowercased() == "where", !qualifier.isEmpty else { throw REPLError("usage: choose RELATIONSHIP [where QUALIFIER]") }
      return .choose(relationship: relationship, qualifier: qualifier)
    case "save": try none(rest, "save"); return .save
    case "revert": try none(rest, "revert"); return .revert
    case "follow": return .follow(try required(rest, "follow RELATIONSHIP"))
    case "login":
      let (user, password) = splitWord(try required(rest, "login USER PASSWORD"))
      guard !password.isEmpty else { throw REPLError("usage: login USER PASSWORD") }
      return .login(user: unquote(user), password: unquote(password))
    case "logout": try none(rest, "logout"); return .logout
    case "unset": return .unset(try required(rest, "unset KEY"))
    case "show": return .show(try required(rest, "show KEY"))
    case "explain": return .explain(try required(rest, "explain KEY"))
    case "rule": return .rule(try required(rest, "rule RULE"))
    case "rules":
      var all = false
      var key: String?
      for part in rest.split(separator: " ") {
        if part == "--all" {
          all = true
        } else if key == nil, !part.hasPrefix("-") {
          key = String(part)
        } else {
          throw REPLError("usage: rules [--all] [KEY]")
        }
      }
      return .rules(all: all, key: key)
    case "drop":
      guard let n = Int(rest), n > 0 else { throw REPLError("usage: drop N (a rule number from `rules`)") }
      return .drop(n)
    case "load": return .load(unquote(try required(rest, "load FILE")))
    case "write": return .write(unquote(try required(rest, "write FILE")))
    case "source": return .source(unquote(try required(rest, "source FILE")))
    case "render": try none(rest, "render"); return .render
    case "context": try none(rest, "context"); return .context
    case "keys": try none(rest, "keys"); return .keys
    case "looks": try none(rest, "looks"); return .looks
    case "plugins": try none(rest, "plugins"); return .plugins
    case "help": return .help(rest.isEmpty ? nil : rest.lowercased())
    case "quit", "exit": return .quit
    default: return try assignment(text)
    }
  }

  /// `KEY = VALUE` or `object.KEY = VALUE`.
  static func assignment(_ text: String) throws -> REPLCommand {
    guard let equals = text.firstIndex(of: "=") else {
      let word = splitWord(text).0
      throw REPLError("unknown command '\(word)' (try `help`)")
    }
    let key = text[..<equals].trimmingCharacters(in: .whitespaces)
    let valueText = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else {
      throw REPLError("unknown command '\(splitWord(text).0)' (try `help`)")
    }
    guard !valueText.isEmpty else { throw REPLError("expected a value after '=' (quote strings: \(key) = 'text')") }
    let value: Literal
    value = try QualifierParser.parseLiteral(valueText)
    if key.hasPrefix("object.") {
      let property = String(key.dropFirst("object.".count))
      guard !property.isEmpty, !property.contains(".") else { throw REPLError("set one property: object.KEY = VALUE") }
      return .setObject(key: property, value: value)
    }
    guard !key.contains(".") else { throw REPLError("set a key, not a key path: KEY = VALUE") }
    return .set(key: key, value: value)
  }

  static func list(_ rest: String) throws -> REPLCommand {
    let body = try required(rest, "list ENTITY [where QUALIFIER] [order by KEY [asc|desc], …] [limit N] [offset N]")
    let (entity, tail) = splitWord(body)
    var clauses = ListClauses()
    guard !tail.isEmpty else { return .list(entity: entity, request: clauses) }
    // Find the top-level clause keywords by lexing (never inside quotes or parentheses).
    let lexer = Lexer(tail, allowsComments: false)
    let tokens: [Token]
    tokens = try lexer.tokenize()
    var marks: [(kind: String, start: Int, bodyStart: Int)] = []
    var depth = 0
    let scalars = Array(tail.unicodeScalars)
    for (index, token) in tokens.enumerated() {
      switch token.kind {
      case .symbol("("), .symbol("["), .symbol("{"): depth += 1
      case .symbol(")"), .symbol("]"), .symbol("}"): depth -= 1
      case .identifier(let word) where depth == 0:
        let lower = word.lowercased()
        if lower == "where" || lower == "limit" || lower == "offset" {
          marks.append((lower, token.offset, tokens[index + 1].offset))
        } else if lower == "order", index + 1 < tokens.count, tokens[index + 1].kind == .identifier("by")
          || tokens[index + 1].kind == .identifier("BY") || tokens[index + 1].kind == .identifier("By")
        {
          marks.append(("order", token.offset, index + 2 < tokens.count ? tokens[index + 2].offset : scalars.count))
        }
      default: break
      }
    }
    guard let first = marks.first, first.start == 0 else { throw REPLError("expected where, order by, limit or offset after \(entity)") }
    for (position, mark) in marks.enumerated() {
      let end = position + 1 < marks.count ? marks[position + 1].start : scalars.count
      let text = String(String.UnicodeScalarView(scalars[min(mark.bodyStart, end)..<end])).trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { throw REPLError("'\(mark.kind)' needs something after it") }
      switch mark.kind {
      case "where":
        guard clauses.qualifier == nil else { throw REPLError("only one where clause") }
        clauses.qualifier = text
      case "order":
        guard clauses.orderings.isEmpty else { throw REPLError("only one order by clause") }
        for part in text.split(separator: ",") {
          let words = part.split(separator: " ").map(String.init)
          guard let key = words.first, words.count <= 2 else { throw REPLError("usage: order by KEY [asc|desc], …") }
          let direction = words.count == 2 ? words[1].lowercased() : "asc"
          guard direction == "asc" || direction == "desc" else { throw REPLError("expected asc or desc after \(key)") }
          clauses.orderings.append((key, direction == "asc"))
        }
      default:
        guard let n = Int(text), n >= 0, n <= Int(Int32.max) else {
          throw REPLError("\(mark.kind) must be a whole number from 0 to \(Int32.max)")
        }
        guard (mark.kind == "limit" ? clauses.limit : clauses.offset) == nil else { throw REPLError("only one \(mark.kind) clause") }
        if mark.kind == "limit" { clauses.limit = n } else { clauses.offset = n }
      }
    }
    return .list(entity: entity, request: clauses)
  }

  /// `ENTITY KEY[,KEY…]`: each key value a literal or a bare word.
  static func entityAndKey(_ rest: String, _ usage: String) throws -> (String, [Literal]) {
    let (entity, keyText) = splitWord(try required(rest, usage))
    guard !keyText.isEmpty else { throw REPLError("usage: \(usage)") }
    let values = try keyText.split(separator: ",", omittingEmptySubsequences: false).map { part -> Literal in
      let text = part.trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty else { throw REPLError("empty key value in '\(keyText)'") }
      if let literal = try? QualifierParser.parseLiteral(text) { return literal }
      return .string(unquote(text))
    }
    return (entity, values)
  }

  static func splitWord(_ text: String) -> (String, String) {
    guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (text, "") }
    return (String(text[..<space]), text[space...].trimmingCharacters(in: .whitespaces))
  }

  static func required(_ rest: String, _ usage: String) throws -> String {
    guard !rest.isEmpty else { throw REPLError("usage: \(usage)") }
    return rest
  }

  static func none(_ rest: String, _ word: String) throws {
    guard rest.isEmpty else { throw REPLError("`\(word)` takes no arguments") }
  }

  static func unquote(_ text: String) -> String {
    if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
      return String(text.dropFirst().dropLast())
    }
    return text
  }

  /// The line without a `#` comment (outside quotes).
  static func stripComment(_ line: String) -> String {
    var quote: Character?
    var escaped = false
    for index in line.indices {
      let c = line[index]
      if escaped { escaped = false; continue }
      if c == "\\" { escaped = true; continue }
      if let q = quote {
        if c == q { quote = nil }
      } else if c == "'" || c == "\"" {
        quote = c
      } else if c == "#" {
        return String(line[..<index])
      }
    }
    return line
  }
}
