import Foundation
import Testing

@testable import D2SModel

/// A title part counts as blank exactly when Foundation's `.whitespaces` would trim it away.
@Suite struct BlankTitleTests {
  @Test func blankIsWhatWhitespacesTrimAway() {
    let samples = [
      "", " ", "\t", " \t ", "\u{00A0}", "\u{3000}", "\u{2009}x", "\u{200B}", "\n", " \n",
      "\r", "a", " a ", "\u{1680}", "\u{FEFF}", "é", "\u{2028}",
    ]
    for text in samples {
      #expect(
        DatabaseObject.isBlank(text) == text.trimmingCharacters(in: .whitespaces).isEmpty,
        "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }
}
