import Components
import Foundation
import Testing

/// JSON strings escaped byte by byte give what escaping scalar by scalar gives: quotes,
/// backslashes, controls (C0 and C1) and bidirectional overrides escaped, the rest as it is,
/// and JSON that parses back to the text.
@Suite struct JSONTextEscapeTests {
  /// The escaping as it was written first, scalar by scalar: the oracle.
  static func reference(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _
      where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  @Test func byteEscapingIsScalarEscaping() throws {
    let pieces = [
      "a", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}",
      "é", "£", "–", "€", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{2065}", "\u{202F}",
      "😀", "日本", " ",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        pieces.randomElement(using: &generator) ?? ""
      }.joined()
      let escaped = JSONText.string(text)
      #expect(escaped == Self.reference(text), "\(Array(text.unicodeScalars))")
      let back =
        try JSONSerialization.jsonObject(
          with: Data(escaped.utf8), options: [.fragmentsAllowed]) as? String
      #expect(back == text)
    }
  }
}
