import D2SModel
import EnvKeys
import Qualifiers

/// Parses command lines: keywords in any case; qualifiers, orderings and literals parsed here
/// into typed values, at the columns where the user typed them. Rule text stays a slice of the
/// line, parsed by the session's engine (which knows the exposed keys).
public enum CommandParser {
  /// The words `help` knows, in the order it lists them.
  public static let commandWords = [
    "open", "entities", "list", "search", "count", "facets", "query", "next", "prev", "position",
    "inspect",
    "edit",
    "new",
    "choose", "save",
    "revert", "delete", "link", "unlink", "follow",
    "login", "logout", "unset", "show", "explain", "why-not", "rule", "rules", "drop", "load",
    "write", "lint", "coverage", "watch", "unwatch",
    "source", "render", "timing", "trace",
    "context", "keys", "looks", "plugins", "formatters", "help", "quit",
  ]

  /// The command on `line`, or nil for a blank line or a comment.
  public static func parse(_ line: String) throws -> REPLCommand? {
    guard line.utf8.count <= Lexer.maximumLineLength else {
      throw REPLError("line is longer than the limit of \(Lexer.maximumLineLength) bytes")
    }
    let text = trimmed(stripComment(line[...]))
    if text.isEmpty { return nil }
    let (word, rest) = splitWord(text)
    switch word.lowercased() {
    case "open": return .open(String(try required(rest, "open DATABASE")))
    case "entities":
      guard rest.isEmpty || rest == "--all" else { throw REPLError("usage: entities [--all]") }
      return .entities(all: rest == "--all")
    case "list": return try list(rest, in: line)
    case "search":
      // `search ENTITY WORDS…`: the entity's list, searched for the words.
      let (entity, words) = splitWord(try required(rest, "search ENTITY WORDS…"))
      guard !words.isEmpty else { throw REPLError("usage: search ENTITY WORDS…") }
      var clauses = ListClauses()
      clauses.search = unquote(words)
      return .list(entity: String(entity), clauses: clauses)
    case "count": return try count(rest, in: line)
    case "facets": return try facets(rest, in: line)
    case "query":
      let (entity, tail) = splitWord(try required(rest, "query ENTITY"))
      guard tail.isEmpty else { throw REPLError("usage: query ENTITY") }
      return .queryForm(entity: String(entity))
    case "next":
      try none(rest, "next")
      return .next
    case "prev":
      try none(rest, "prev")
      return .prev
    case "position":
      try none(rest, "position")
      return .position
    case "inspect":
      if rest == "--explain" { return .inspectExplained }
      let (e, k) = try entityAndKey(rest, "inspect ENTITY KEY | inspect --explain")
      return .inspect(entity: e, key: k)
    case "edit":
      let (e, k) = try entityAndKey(rest, "edit ENTITY KEY")
      return .edit(entity: e, key: k)
    case "delete":
      let (e, k) = try entityAndKey(rest, "delete ENTITY KEY")
      return .delete(entity: e, key: k)
    case "link", "unlink": return try link(rest, remove: word.lowercased() == "unlink")
    case "new": return .new(entity: String(try required(rest, "new ENTITY")))
    case "choose": return try choose(rest, in: line)
    case "save":
      try none(rest, "save")
      return .save
    case "revert":
      try none(rest, "revert")
      return .revert
    case "follow": return .follow(String(try required(rest, "follow RELATIONSHIP")))
    case "login":
      let (user, password) = splitWord(try required(rest, "login USER PASSWORD"))
      guard !password.isEmpty else { throw REPLError("usage: login USER PASSWORD") }
      return .login(user: unquote(user), password: unquote(password))
    case "logout":
      try none(rest, "logout")
      return .logout
    case "unset": return .unset(String(try required(rest, "unset KEY")))
    case "show": return .show(String(try required(rest, "show KEY")))
    case "explain", "why-not", "lint", "coverage", "watch", "unwatch":
      return try ruleTool(word.lowercased(), rest)
    case "rule": return .rule(LineSlice(line, try required(rest, "rule RULE")))
    case "rules": return try rules(rest)
    case "drop":
      guard let n = Int(rest), n > 0 else {
        throw REPLError("usage: drop N (a rule number from `rules`)")
      }
      return .drop(n)
    case "load": return .load(unquote(try required(rest, "load FILE")))
    case "write": return try write(rest)
    case "source": return .source(unquote(try required(rest, "source FILE")))
    case "render":
      try none(rest, "render")
      return .render
    case "timing": return .timing(try onOff(rest, "timing on|off"))
    case "trace": return .trace(try onOff(rest, "trace on|off"))
    case "context":
      try none(rest, "context")
      return .context
    case "keys":
      try none(rest, "keys")
      return .keys
    case "looks":
      try none(rest, "looks")
      return .looks
    case "plugins":
      try none(rest, "plugins")
      return .plugins
    case "formatters":
      try none(rest, "formatters")
      return .formatters
    case "help": return .help(rest.isEmpty ? nil : rest.lowercased())
    case "quit", "exit": return .quit
    default: return try assignment(text, in: line)
    }
  }

  /// `KEY = VALUE` or `object.KEY = VALUE`.
  static func assignment(_ text: Substring, in line: String) throws -> REPLCommand {
    guard let equals = text.firstIndex(of: "=") else {
      throw REPLError("unknown command '\(splitWord(text).0)' (try `help`)")
    }
    let key = String(trimmed(text[..<equals]))
    let valueText = trimmed(text[text.index(after: equals)...])
    // `object.`name with . and spaces` = …`: a property, or a column by its own name.
    if key.hasPrefix("object.`"), key.hasSuffix("`"), key.count > "object.``".count {
      let property = String(key.dropFirst("object.`".count).dropLast())
      guard !property.contains("`"), !valueText.isEmpty else {
        throw REPLError("set one property: object.`NAME` = VALUE")
      }
      let value = try QualifierParser.parseLiteral(
        line, range: valueText.startIndex..<valueText.endIndex)
      return .setObject(key: property, value: value)
    }
    guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    else {
      throw REPLError("unknown command '\(splitWord(text).0)' (try `help`)")
    }
    guard !valueText.isEmpty else {
      throw REPLError("expected a value after '=' (quote strings: \(key) = 'text')")
    }
    // A uuid or code typed as it is shown (`object.manager = 550e8400-e29b-…`).
    let bare = key.hasPrefix("object.") && Literal.isBareKey(String(valueText))
    let value: Literal =
      bare
      ? .string(String(valueText))
      : try QualifierParser.parseLiteral(line, range: valueText.startIndex..<valueText.endIndex)
    if key.hasPrefix("object.") {
      let property = String(key.dropFirst("object.".count))
      guard !property.isEmpty, !property.contains(".") else {
        throw REPLError("set one property: object.KEY = VALUE")
      }
      return .setObject(key: property, value: value)
    }
    guard !key.contains(".") else { throw REPLError("set a key, not a key path: KEY = VALUE") }
    return .set(key: key, value: value)
  }

  /// `write [--force] FILE`.
  static func write(_ rest: Substring) throws -> REPLCommand {
    let body = try required(rest, "write [--force] FILE")
    let (first, tail) = splitWord(body)
    guard first == "--force" else { return .write(unquote(body), force: false) }
    return .write(unquote(try required(tail, "write --force FILE")), force: true)
  }

  static func choose(_ rest: Substring, in line: String) throws -> REPLCommand {
    let body = try required(rest, "choose RELATIONSHIP [where QUALIFIER]")
    let (relationship, tail) = splitWord(body)
    if tail.isEmpty { return .choose(relationship: String(relationship), qualifier: nil) }
    let (keyword, qualifier) = splitWord(tail)
    guard keyword.lowercased() == "where", !qualifier.isEmpty else {
      throw REPLError("usage: choose RELATIONSHIP [where QUALIFIER]")
    }
    return .choose(
      relationship: String(relationship),
      qualifier: try QualifierParser.parse(line, range: qualifier.startIndex..<qualifier.endIndex))
  }

  /// `count ENTITY [where QUALIFIER]`.
  static func count(_ rest: Substring, in line: String) throws -> REPLCommand {
    let (entity, tail) = splitWord(try required(rest, "count ENTITY [where QUALIFIER]"))
    if tail.isEmpty { return .count(entity: String(entity), qualifier: nil) }
    let (keyword, qualifier) = splitWord(tail)
    guard keyword.lowercased() == "where", !qualifier.isEmpty else {
      throw REPLError("usage: count ENTITY [where QUALIFIER]")
    }
    return .count(
      entity: String(entity),
      qualifier: try QualifierParser.parse(line, range: qualifier.startIndex..<qualifier.endIndex))
  }

  /// `facets ENTITY [where QUALIFIER] by KEY, …`: the keys after the last `by`.
  static func facets(_ rest: Substring, in line: String) throws -> REPLCommand {
    let usage = "usage: facets ENTITY [where QUALIFIER] by KEY, …"
    let body = try required(rest, "facets ENTITY [where QUALIFIER] by KEY, …")
    guard let by = body.range(of: " by ", options: [.caseInsensitive, .backwards]) else {
      throw REPLError(usage)
    }
    let keys = body[by.upperBound...].split(separator: ",").map { String(trimmed($0)) }
    guard !keys.isEmpty, !keys.contains(where: \.isEmpty) else { throw REPLError(usage) }
    let (entity, tail) = splitWord(trimmed(body[..<by.lowerBound]))
    guard !tail.isEmpty else { return .facets(entity: String(entity), qualifier: nil, keys: keys) }
    let (keyword, qualifier) = splitWord(tail)
    guard keyword.lowercased() == "where", !qualifier.isEmpty else { throw REPLError(usage) }
    return .facets(
      entity: String(entity),
      qualifier: try QualifierParser.parse(line, range: qualifier.startIndex..<qualifier.endIndex),
      keys: keys)
  }

  static func rules(_ rest: Substring) throws -> REPLCommand {
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
  }

  /// `ENTITY KEY[,KEY…]`: each key value a literal or a bare word.
  /// `link ENTITY KEY RELATIONSHIP KEY` or `unlink …`.
  static func link(_ rest: Substring, remove: Bool) throws -> REPLCommand {
    let usage = "\(remove ? "unlink" : "link") ENTITY KEY RELATIONSHIP KEY"
    let (entity, afterEntity) = splitWord(try required(rest, usage))
    let (key, afterKey) = splitWord(afterEntity)
    let (relationship, destination) = splitWord(afterKey)
    guard !key.isEmpty, !relationship.isEmpty, !destination.isEmpty,
      !destination.contains(where: { $0 == " " || $0 == "\t" })
    else { throw REPLError("usage: \(usage)") }
    return .link(
      entity: String(entity), key: try keyValues(key), relationship: String(relationship),
      destination: try keyValues(destination), remove: remove)
  }

  static func entityAndKey(_ rest: Substring, _ usage: String) throws -> (String, [Literal]) {
    let (entity, keyText) = splitWord(try required(rest, usage))
    guard !keyText.isEmpty else { throw REPLError("usage: \(usage)") }
    return (String(entity), try keyValues(keyText))
  }

  /// A key as typed (`1`, `1,23`, `'INV 7'`): one literal per column, split at commas.
  static func keyValues(_ keyText: Substring) throws -> [Literal] {
    try keyParts(keyText).map { part -> Literal in
      let text = String(trimmed(part))
      guard !text.isEmpty else { throw REPLError("empty key value in '\(keyText)'") }
      if Literal.isBareKey(text) { return .string(text) }
      if let literal = try? QualifierParser.parseLiteral(text) {
        // A number kept as typed (`01`, `1.0`): a text key is that text; a numeric key
        // parses it (``REPLSession/fetch(_:_:)``).
        switch literal {
        case .int, .decimal: return .string(text)
        default: return literal
        }
      }
      return .string(unquote(text[...]))
    }
  }

  /// `keyText` split at the commas outside quotes (`1,'b,c'` is two values).
  static func keyParts(_ keyText: Substring) -> [Substring] {
    var parts: [Substring] = []
    var start = keyText.startIndex
    forEachUnquoted(keyText) { index in
      if keyText[index] == "," {
        parts.append(keyText[start..<index])
        start = keyText.index(after: index)
      }
      return true
    }
    parts.append(keyText[start...])
    return parts
  }

  /// Calls `body` with each index of `text` outside quotes (`'…'`, `"…"`; a backslash
  /// escapes the character after it) until it returns false.
  static func forEachUnquoted(_ text: Substring, _ body: (Substring.Index) -> Bool) {
    var quote: Character?
    var escaped = false
    for index in text.indices {
      let c = text[index]
      if escaped {
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else if let open = quote {
        if c == open { quote = nil }
      } else if c == "'" || c == "\"" {
        quote = c
      } else if !body(index) {
        return
      }
    }
  }

  // MARK: - Words

  static func splitWord(_ text: Substring) -> (Substring, Substring) {
    guard let space = text.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
      return (text, text[text.endIndex...])
    }
    return (text[..<space], trimmed(text[space...]))
  }

  /// `text` without leading and trailing blanks; its indices stay those of the line.
  static func trimmed(_ text: Substring) -> Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }),
      let last = text.lastIndex(where: { !blank($0) })
    else {
      return text[text.endIndex...]
    }
    return text[first...last]
  }

  static func required(_ rest: Substring, _ usage: String) throws -> Substring {
    guard !rest.isEmpty else { throw REPLError("usage: \(usage)") }
    return rest
  }

  /// `on` or `off`, in any case.
  static func onOff(_ rest: Substring, _ usage: String) throws -> Bool {
    switch rest.lowercased() {
    case "on": return true
    case "off": return false
    default: throw REPLError("usage: \(usage)")
    }
  }

  static func none(_ rest: Substring, _ word: String) throws {
    guard rest.isEmpty else { throw REPLError("`\(word)` takes no arguments") }
  }

  static func unquote(_ text: Substring) -> String {
    if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
      return String(text.dropFirst().dropLast())
    }
    return String(text)
  }

  /// The line without a `#` comment (outside quotes).
  static func stripComment(_ line: Substring) -> Substring {
    var end = line.endIndex
    forEachUnquoted(line) { index in
      guard line[index] == "#" else { return true }
      end = index
      return false
    }
    return line[..<end]
  }
}
