import EnvKeys
import Foundation

/// Splits qualifier and rule text into tokens before any parsing, so quotes, comments and
/// operators are never split on raw characters.
package struct Lexer {
  /// The longest line accepted.
  package static let maximumLineLength = 1 << 20

  let scalars: [Unicode.Scalar]
  /// The whole text, split into lines only for an error message.
  let text: String
  let firstLine: Int
  let file: String?
  let allowsComments: Bool
  /// The offset, in Unicode scalars, where tokenizing starts; `scalars` ends where it stops.
  let start: Int

  /// - Parameters:
  ///   - text: The text; a `\` at the end of a line continues it on the next.
  ///   - firstLine: The line number of the text's first line (for rule files).
  ///   - allowsComments: Whether `#` and `//` start a comment outside quotes.
  ///   - range: The part of `text` to tokenize (all of it when nil). Locations and error
  ///     lines stay those of the whole text, so a clause of a command line is reported at the
  ///     column the user typed.
  package init(
    _ text: String, firstLine: Int = 1, file: String? = nil, allowsComments: Bool = true,
    range: Range<String.Index>? = nil
  ) {
    let all = text.unicodeScalars
    let bounds = range.map {
      all.distance(
        from: all.startIndex, to: $0.lowerBound)..<all.distance(
          from: all.startIndex, to: $0.upperBound)
    }
    self.scalars = Self.scalars(of: bounds.map { all.prefix($0.upperBound) } ?? all[...])
    self.start = bounds?.lowerBound ?? 0
    self.text = text
    self.firstLine = firstLine
    self.file = file
    self.allowsComments = allowsComments
  }

  /// The scalars of `view`: ASCII text (nearly all) from its bytes, without decoding UTF-8.
  private static func scalars(of view: Substring.UnicodeScalarView) -> [Unicode.Scalar] {
    // Not `Array(unsafeUninitializedCapacity: 0)`: it writes the count into the standard
    // library's one shared empty-array storage, a race between threads lexing empty lines.
    guard !view.isEmpty else { return [] }
    let ascii = Substring(view).utf8.withContiguousStorageIfAvailable {
      bytes -> [Unicode.Scalar]? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      return [Unicode.Scalar](unsafeUninitializedCapacity: bytes.count) { buffer, count in
        for (offset, byte) in bytes.enumerated() { buffer[offset] = Unicode.Scalar(byte) }
        count = bytes.count
      }
    }
    return (ascii ?? nil) ?? Array(view)
  }

  /// An error at `location` (relative line numbers already made absolute).
  package func error(_ message: String, at location: SourceLocation) -> ParseError {
    let index = location.line - firstLine
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let line = lines.indices.contains(index) ? String(lines[index]) : ""
    return ParseError(message: message, location: location, sourceLine: line, file: file)
  }

  /// All tokens, ending with `.end`.
  package func tokenize() throws(ParseError) -> [Token] {
    if text.utf8.count > Lexer.maximumLineLength {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      for (index, line) in lines.enumerated() where line.utf8.count > Lexer.maximumLineLength {
        throw error(
          "line is longer than the limit of \(Lexer.maximumLineLength) bytes",
          at: SourceLocation(line: firstLine + index, column: 1))
      }
    }
    var tokens: [Token] = []
    var i = start
    var line = firstLine + scalars.prefix(start).count(where: { $0 == "\n" })
    var lineStart = (scalars.prefix(start).lastIndex(of: "\n") ?? -1) + 1
    func location(_ at: Int) -> SourceLocation {
      SourceLocation(line: line, column: at - lineStart + 1)
    }

    while i < scalars.count {
      let c = scalars[i]
      // Whitespace, line breaks and `\` continuations.
      if c == "\n" {
        i += 1
        line += 1
        lineStart = i
        continue
      }
      if c == " " || c == "\t" || c == "\r" {
        i += 1
        continue
      }
      if c == "\\" {
        var j = i + 1
        while j < scalars.count, scalars[j] == " " || scalars[j] == "\t" || scalars[j] == "\r" {
          j += 1
        }
        if j == scalars.count || scalars[j] == "\n" {
          i = j
          continue
        }
        throw error("unexpected '\\' outside quotes", at: location(i))
      }
      if allowsComments
        && (c == "#" || (c == "/" && i + 1 < scalars.count && scalars[i + 1] == "/"))
      {
        while i < scalars.count, scalars[i] != "\n" { i += 1 }
        continue
      }
      let start = i
      let startLocation = location(i)
      func push(_ kind: Token.Kind) {
        tokens.append(Token(kind: kind, location: startLocation, offset: start))
      }

      if c == "'" || c == "\"" {
        // The text between escapes is taken a run at a time (``string(_:)``), not a scalar at
        // a time.
        var value = ""
        i += 1
        var run = i
        var closed = false
        while i < scalars.count {
          let s = scalars[i]
          if s == c {
            closed = true
            value += string(run..<i)
            i += 1
            break
          }
          if s == "\n" { break }
          if s == "\\" {
            guard i + 1 < scalars.count else { break }
            value += string(run..<i)
            let e = scalars[i + 1]
            switch e {
            case "'", "\"", "\\": value.unicodeScalars.append(e)
            case "n": value += "\n"
            case "t": value += "\t"
            case "r": value += "\r"
            // Kept escaped: `like` patterns read `\*` and `\?` as literal characters.
            case "*", "?":
              value += "\\"
              value.unicodeScalars.append(e)
            default:
              throw error(
                "unknown escape '\\\(e)' in string (use \\' \\\" \\\\ \\n \\t)", at: location(i))
            }
            i += 2
            run = i
            continue
          }
          i += 1
        }
        guard closed else {
          throw error("unterminated string: missing closing \(c)", at: startLocation)
        }
        push(.string(value))
        continue
      }

      if isDigit(c) || (c == "-" && i + 1 < scalars.count && isDigit(scalars[i + 1])) {
        i += 1
        while i < scalars.count, isDigit(scalars[i]) { i += 1 }
        var isDecimal = false
        if i + 1 < scalars.count, scalars[i] == ".", isDigit(scalars[i + 1]) {
          isDecimal = true
          i += 1
          while i < scalars.count, isDigit(scalars[i]) { i += 1 }
        }
        if i < scalars.count, isIdentifierScalar(scalars[i]) {
          throw error("malformed number", at: startLocation)
        }
        let text = string(start..<i)
        if isDecimal {
          guard text.filter(\.isNumber).count <= 38,
            let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
          else { throw error("decimal literal \(text) has more than 38 digits", at: startLocation) }
          push(.decimal(d))
        } else {
          guard let n = Int(text) else {
            throw error("integer literal \(text) overflows", at: startLocation)
          }
          push(.int(n))
        }
        continue
      }

      if c == "`" {
        push(.quotedPath(try path(from: &i, components: [])))
        continue
      }

      if isIdentifierStart(c) {
        i += 1
        while i < scalars.count {
          let s = scalars[i]
          if isIdentifierScalar(s) {
            i += 1
            continue
          }
          if s == ".", i + 1 < scalars.count,
            isIdentifierStart(scalars[i + 1]) || isDigit(scalars[i + 1])
          {
            i += scalars[i + 1] == "@" ? 2 : 1  // `@count` and the like start a component
            continue
          }
          break
        }
        if i + 1 < scalars.count, scalars[i] == ".", scalars[i + 1] == "`" {
          // `address.`zip code``: the rest is read component by component.
          let head = KVCPath(string(start..<i)).components  // split at `.` scalars
          i += 1
          push(.quotedPath(try path(from: &i, components: head)))
          continue
        }
        if i < scalars.count, scalars[i] == "." {
          throw error("key path must not end with '.'", at: location(i))
        }
        push(.identifier(string(start..<i)))
        continue
      }

      if c == "*" {
        for (word, value) in [("*true*", true), ("*false*", false)] {
          let length = word.utf8.count  // ASCII
          if i + length <= scalars.count, string(i..<i + length).lowercased() == word {
            i += length
            push(.boolConstant(value))
            break
          }
        }
        if i != start { continue }
        throw error("unexpected '*' (did you mean *true* or *false*?)", at: startLocation)
      }

      if i + 1 < scalars.count, let two = Self.twoScalarSymbol(c, scalars[i + 1]) {
        i += 2
        push(.symbol(two))
        continue
      }
      if let one = Self.oneScalarSymbol(c) {
        i += 1
        push(.symbol(one))
        continue
      }
      throw error("unexpected character '\(c)'", at: startLocation)
    }
    tokens.append(Token(kind: .end, location: location(i), offset: i))
    return tokens
  }

  /// The text of `scalars[range]` (ASCII without going through the scalar view's appends).
  private func string(_ range: Range<Int>) -> String {
    let part = scalars[range]
    guard part.allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(part)) }
    return String(unsafeUninitializedCapacity: part.count) { buffer in
      for (offset, scalar) in part.enumerated() { buffer[offset] = UInt8(scalar.value) }
      return part.count
    }
  }

  /// `==`, `!=`, `<>`, `<=`, `>=`, `=>`, `&&` or `||` when `a` and `b` spell one.
  private static func twoScalarSymbol(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> String? {
    switch (a, b) {
    case ("=", "="): "=="
    case ("!", "="): "!="
    case ("<", ">"): "<>"
    case ("<", "="): "<="
    case (">", "="): ">="
    case ("=", ">"): "=>"
    case ("&", "&"): "&&"
    case ("|", "|"): "||"
    default: nil
    }
  }

  /// The symbol `c` is on its own, if it is one.
  private static func oneScalarSymbol(_ c: Unicode.Scalar) -> String? {
    switch c {
    case "=": "="
    case "<": "<"
    case ">": ">"
    case "!": "!"
    case "(": "("
    case ")": ")"
    case "{": "{"
    case "}": "}"
    case "[": "["
    case "]": "]"
    case ",": ","
    case ";": ";"
    case ":": ":"
    default: nil
    }
  }

  private func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
  /// A key path from `i` whose components are identifiers or names in backticks, after
  /// `components` already read; `i` ends after it.
  private func path(from i: inout Int, components: [String]) throws(ParseError) -> [String] {
    var components = components
    while true {
      let componentStart = i
      if i < scalars.count, scalars[i] == "`" {
        i += 1
        var name = String.UnicodeScalarView()
        while i < scalars.count, scalars[i] != "`", scalars[i] != "\n" {
          name.append(scalars[i])
          i += 1
        }
        guard i < scalars.count, scalars[i] == "`" else {
          throw error("unterminated '`' name", at: position(componentStart))
        }
        guard !name.isEmpty else { throw error("empty '``' name", at: position(componentStart)) }
        i += 1
        components.append(String(name))
      } else if i < scalars.count, isIdentifierStart(scalars[i]) || isDigit(scalars[i]) {
        // `@` only starts a component (`@count`), and a number is one (`items.1`), as after a
        // bare name.
        i += 1
        while i < scalars.count, isIdentifierScalar(scalars[i]) { i += 1 }
        components.append(String(String.UnicodeScalarView(scalars[componentStart..<i])))
      } else {
        throw error("expected a name after '.'", at: position(componentStart))
      }
      guard i + 1 < scalars.count, scalars[i] == ".",
        scalars[i + 1] == "`" || isIdentifierStart(scalars[i + 1]) || isDigit(scalars[i + 1])
      else { break }
      i += 1
    }
    return components
  }

  /// The line and column of scalar `offset` (for errors inside a token).
  private func position(_ offset: Int) -> SourceLocation {
    let before = scalars[..<offset]
    let line = firstLine + before.count(where: { $0 == "\n" })
    let lineStart = (before.lastIndex(of: "\n") ?? -1) + 1
    return SourceLocation(line: line, column: offset - lineStart + 1)
  }

  private func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    c == "_" || c == "@" || isLetter(c)
  }
  private func isIdentifierScalar(_ c: Unicode.Scalar) -> Bool {
    c == "_" || isLetter(c) || isDigit(c)
  }
  /// A letter: ASCII is settled without Unicode's property tables.
  private func isLetter(_ c: Unicode.Scalar) -> Bool {
    if c.isASCII { return ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
    return c.properties.isAlphabetic
  }
}
