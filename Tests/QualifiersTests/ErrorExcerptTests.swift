import Qualifiers
import Testing

/// A parse error's caret points at its column in the line shown: a long line is shown around
/// the column (it was cut after 200 characters, the caret past its end), and a wide character
/// (`日`) before it takes two columns, as a terminal shows it.
@Suite struct ErrorExcerptTests {
  /// The shown line and the caret's line of `error`.
  static func lines(_ error: ParseError) -> (shown: String, caret: String) {
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    return (String(lines[1]), String(lines[2]))
  }

  @Test func theCaretIsUnderItsColumnInALongLine() {
    let text =
      String(repeating: "a and ", count: 80) + "> 3" + String(repeating: " and b", count: 40)
    let column = text.distance(from: text.startIndex, to: text.firstIndex(of: ">")!) + 1
    let error = ParseError(
      message: "expected a value", location: SourceLocation(line: 1, column: column),
      sourceLine: text)
    let (shown, caret) = Self.lines(error)
    #expect(shown.count <= 202 && shown.hasPrefix("…") && shown.hasSuffix("…"))
    #expect(caret.count <= shown.count)
    #expect(Array(shown)[caret.count - 1] == ">", "\(shown)\n\(caret)")
  }

  @Test func aWideCharacterTakesTwoColumns() {
    let text = "title = '日本語' and > 3"
    let error = ParseError(
      message: "expected a value", location: SourceLocation(line: 1, column: 19),
      sourceLine: text)
    let (_, caret) = Self.lines(error)
    // 18 characters before the caret, three of them wide.
    #expect(caret == String(repeating: " ", count: 21) + "^")
  }

  @Test func aShortLineIsShownWhole() {
    let error = ParseError(
      message: "x", location: SourceLocation(line: 1, column: 3), sourceLine: "a >> b")
    #expect(Self.lines(error) == ("a >> b", "  ^"))
  }
}
