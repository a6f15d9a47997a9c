import Testing

@testable import D2SWeb

/// A `Cookie` header's pairs: names and values without the spaces and tabs around them, the
/// first of a repeated name kept, parts without `=` between text skipped (a name of spaces is
/// the empty name), any script as it is.
@Suite struct CookieHeaderTests {
  @Test func pairsAreTrimmedAndTheFirstOfANameWins() {
    #expect(
      WebRequest.cookies(" a=1;\tb = two words ; a=3;junk; c=; =x ;d=é ü\t")
        == ["a": "1", "b": "two words", "": "x", "d": "é ü"])
    #expect(WebRequest.cookies(nil) == [:])
    #expect(WebRequest.cookies("") == [:])
    #expect(WebRequest.cookies(" ; ;\t") == [:])
    #expect(WebRequest.cookies("a=1;") == ["a": "1"])
    #expect(WebRequest.cookies(";a=b=c;;=;b=") == ["a": "b=c"])
    #expect(WebRequest.cookies("=") == [:])
    let many = (0..<50).map { "c\($0 % 25)=\($0)" }.joined(separator: "; ")
    #expect(
      WebRequest.cookies(many)
        == Dictionary(uniqueKeysWithValues: (0..<25).map { ("c\($0)", "\($0)") }))
  }

  @Test(arguments: [
    ("", ""), (" ", ""), ("\t \t", ""), ("x", "x"), (" x ", "x"), ("\tx y\t", "x y"),
    ("日本 ", "日本"), (" \u{00A0}x\u{00A0} ", "\u{00A0}x\u{00A0}"), ("a=b", "a=b"),
  ])
  func trimmingTakesOnlySpacesAndTabs(text: String, expected: String) {
    #expect(WebRequest.trimmed(Substring(text)) == expected)
  }
}
