import EnvKeys
import Foundation
import Qualifiers
import Testing

/// The lexer and key paths take ASCII text a run of bytes at a time; these pin what they read
/// against text with escapes, non-ASCII letters and combining marks.
@Suite struct LexerFastPathTests {
  func parse(_ text: String) throws -> Qualifier { try QualifierParser.parse(text) }

  @Test(arguments: [
    ("a = 'plain'", "plain"),
    ("a = ''", ""),
    ("a = 'it\\'s'", "it's"),
    ("a = 'x\\\\y'", "x\\y"),
    ("a = '\\n\\t\\r'", "\n\t\r"),
    ("a = 'both\\\"quotes'", "both\"quotes"),
    ("a = 'like \\* and \\?'", "like \\* and \\?"),
    ("a = 'Zoë 東京 e\u{301}'", "Zoë 東京 e\u{301}"),
    ("a = 'ends with escape\\n'", "ends with escape\n"),
    ("a = \"double 'single' inside\"", "double 'single' inside"),
  ])
  func stringLiteralsReadExactly(text: String, expected: String) throws {
    #expect(try parse(text) == .comparison("a", .equal, .string(expected)))
  }

  @Test func booleanConstantsInAnyCase() throws {
    #expect(try Lexer("*true*").tokenize().map(\.kind) == [.boolConstant(true), .end])
    #expect(try Lexer("*FALSE*").tokenize().map(\.kind) == [.boolConstant(false), .end])
    #expect(throws: ParseError.self) { try Lexer("*tru").tokenize() }
    #expect(throws: ParseError.self) { try Lexer("*").tokenize() }
  }

  @Test func keyPathsSplitAtEveryDotScalar() {
    #expect(KVCPath("a.b.c").components == ["a", "b", "c"])
    #expect(KVCPath("a..b").components == ["a", "", "b"])
    #expect(KVCPath(".a.").components == ["", "a", ""])
    #expect(KVCPath("").components == [""])
    #expect(KVCPath("café.naïve").components == ["café", "naïve"])
    // A dot before a combining mark is one Character but still splits, as the lexer reads it.
    #expect(KVCPath("a.\u{301}b").components == ["a", "\u{301}b"])
  }
}
