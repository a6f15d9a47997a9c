import EnvKeys
import Foundation
import Testing

/// Text that is not UTF-8, shown (issue 40): each stray byte as `\xNN`, every well-formed
/// character as itself, U+FFFD's own bytes included (a fuzz finding: a combining mark after
/// it made a check by characters miss it).
@Suite struct EscapedTextTests {
  @Test(
    arguments: [
      ([0x80], #"\x80"#), ([0x61, 0xC0], #"a\xc0"#),
      ([0x80, 0x80, 0x80, 0xF0, 0x80, 0x80, 0x80, 0xFF], #"\x80\x80\x80\xf0\x80\x80\x80\xff"#),
      ([0xED, 0xA0, 0x80], #"\xed\xa0\x80"#), ([0xF4, 0x90, 0x80, 0x80], #"\xf4\x90\x80\x80"#),
      ([0xE2, 0x82, 0xAC], "€"),
    ] as [([UInt8], String)])
  func strayBytesAreEscaped(bytes: [UInt8], shown: String) {
    #expect(DatabaseValue.escapedText(Data(bytes)) == shown)
  }

  @Test func replacementCharactersOfTheirOwnStay() {
    let bytes: [UInt8] = [106, 43, 45, 239, 191, 189, 217, 150, 226, 128, 134, 173, 146, 138]
    let shown = DatabaseValue.escapedText(Data(bytes))
    #expect(shown.unicodeScalars.contains("\u{FFFD}"))
    #expect(shown.hasSuffix(#"\xad\x92\x8a"#))
  }
}
