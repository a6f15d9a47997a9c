import Testing

@testable import D2SWeb

/// Escaping: markup's five characters as entities, control characters (but tab and line
/// breaks) as the terminal shows them (`\x00`), and U+FFFD in a form's value, which cannot
/// hold them; everything else, in any script, as it is.
@Suite struct HTMLEscapeTests {
  @Test(arguments: [
    ("plain", "plain"), ("", ""), ("a & b", "a &amp; b"), ("<script>", "&lt;script&gt;"),
    (#"say "hi" 'there'"#, "say &quot;hi&quot; &#39;there&#39;"),
    ("tab\tline\nreturn\r", "tab\tline\nreturn\r"),
    ("bell\u{07}nul\u{0}del\u{7F}", #"bell\x07nul\x00del\x7F"#),
    ("Zoë <ü> 日本 🎬 &", "Zoë &lt;ü&gt; 日本 🎬 &amp;"), ("\u{1B}[31mred", #"\x1B[31mred"#),
    ("\u{FFFD}", "\u{FFFD}"), ("– … •", "– … •"),
  ])
  func escapes(text: String, expected: String) {
    #expect(HTML.escape(text) == expected)
  }

  @Test func everyASCIICharacterIsEscapedAsItShouldBe() {
    let entities: [UInt8: String] = [
      UInt8(ascii: "&"): "&amp;", UInt8(ascii: "<"): "&lt;", UInt8(ascii: ">"): "&gt;",
      UInt8(ascii: "\""): "&quot;", UInt8(ascii: "'"): "&#39;",
    ]
    for byte in UInt8(0)...0x7F {
      let text = String(UnicodeScalar(byte))
      let expected: String =
        if let entity = entities[byte] {
          entity
        } else if byte == 0x7F || byte < 0x20 && ![0x09, 0x0A, 0x0D].contains(byte) {
          "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        } else {
          text
        }
      // Alone, and between letters (where a scan finds it among bytes that need nothing).
      #expect(HTML.escape(text) == expected, "\(byte)")
      #expect(HTML.escape("ab" + text + "cd") == "ab" + expected + "cd", "\(byte)")
    }
  }

  @Test func aFormValueKeepsWhatItCanHold() {
    #expect(HTML.formValue("\u{202E}a\u{200B}") == "\u{202E}a\u{200B}")
    #expect(HTML.formValue("nul\u{0}") == "nul\u{FFFD}")
    #expect(HTML.escape("\u{202E}a\u{FEFF}") == #"\u{202E}a\u{FEFF}"#)
  }

  @Test(arguments: [
    ("42", "42"), ("", ""), ("a-Z.0_9~", "a-Z.0_9~"),
    ("a b/c,d?e#f%g", "a%20b%2Fc%2Cd%3Fe%23f%25g"),
    ("Zoë", "Zo%C3%AB"), ("🎬", "%F0%9F%8E%AC"), ("\u{0}\u{7F}+", "%00%7F%2B"),
  ])
  func percentEncodesAllButUnreservedBytes(text: String, expected: String) {
    #expect(HTML.pathSegment(text) == expected)
    #expect(HTML.percentDecoded(Substring(expected)) == text)
  }

  @Test func onlyWebAndMailAddressesAreLinks() {
    for text in ["http://a.example", "HTTPS://A.EXAMPLE/x", "mailto:ann@example.com"] {
      #expect(HTML.isLinkable(text), "\(text)")
    }
    for text in ["javascript:alert(1)", "https://", "http://a b", "hello", "", "ftp://x"] {
      #expect(!HTML.isLinkable(text), "\(text)")
    }
  }
}
