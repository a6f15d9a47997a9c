/// A position in source text, 1-based.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, counting Unicode scalars.
  public var column: Int
  /// A location at `line` and `column`.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
  /// `LINE:COLUMN`.
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

  /// An error at `location` of `sourceLine` (in `file`, when the text came from one).
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
    // Columns count Unicode scalars (as the lexer does): the characters before the caret
    // are those of its scalars.
    let characters = Array(sourceLine)
    let before = String(
      String.UnicodeScalarView(sourceLine.unicodeScalars.prefix(max(location.column - 1, 0)))
    ).count
    // A long line is shown around the caret, at most ``excerptLength`` characters of it.
    var start = 0
    var end = characters.count
    if characters.count > Self.excerptLength {
      start = min(max(before - Self.excerptLength / 2, 0), characters.count - Self.excerptLength)
      end = start + Self.excerptLength
    }
    let shown = characters[start..<end]
    let line = (start > 0 ? "…" : "") + String(shown) + (end < characters.count ? "…" : "")
    // One space per character before the caret (two for a wide one), a tab as a tab.
    var caretPad = start > 0 ? " " : ""
    for c in shown.prefix(max(before - start, 0)) {
      caretPad += c == "\t" ? "\t" : (Self.isWide(c) ? "  " : " ")
    }
    return "\(prefix)\(location.line):\(location.column): \(word)\(message)\n\(line)\n\(caretPad)^"
  }

  /// The most characters of a source line an error shows.
  static let excerptLength = 200

  /// Whether a terminal shows `c` two columns wide: East Asian wide and full-width forms,
  /// and emoji.
  static func isWide(_ c: Character) -> Bool {
    guard let scalar = c.unicodeScalars.first?.value else { return false }
    switch scalar {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return true
    default: return false
    }
  }
}
