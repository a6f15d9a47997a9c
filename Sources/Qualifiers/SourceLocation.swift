/// A position in source text, 1-based.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
  public var description: String { "\(line):\(column)" }
}

/// An error in qualifier or rule text, with the line and a caret under the column.
public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, and how to fix it where that is clear.
  public var message: String
  /// Where: line and column in the parsed text (or file).
  public var location: SourceLocation
  /// The source line the error is on.
  public var sourceLine: String
  /// The file, when the text came from one.
  public var file: String?

  public init(message: String, location: SourceLocation, sourceLine: String, file: String? = nil) {
    self.message = message
    self.location = location
    self.sourceLine = sourceLine
    self.file = file
  }

  /// `file:line:column: error: message`, the source line, and a caret under the column.
  public var description: String { rendered(word: "error: ") }

  /// The description without its `error:` word, for tools that print their own prefix.
  public var diagnostic: String { rendered(word: "") }

  private func rendered(word: String) -> String {
    let prefix = file.map { "\($0):" } ?? ""
    // Columns count Unicode scalars (as the lexer does); the caret needs one space per
    // character before it, so combining marks add none.
    var caretPad = ""
    let before = String(
      String.UnicodeScalarView(sourceLine.unicodeScalars.prefix(max(location.column - 1, 0))))
    for c in before { caretPad.append(c == "\t" ? "\t" : " ") }
    let line = sourceLine.count > 200 ? String(sourceLine.prefix(200)) + "…" : sourceLine
    return "\(prefix)\(location.line):\(location.column): \(word)\(message)\n\(line)\n\(caretPad)^"
  }
}
