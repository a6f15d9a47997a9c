import Qualifiers
import Testing

/// Lexers made on many threads at once share nothing: an empty text's scalars are not written
/// into the standard library's one empty-array storage. (Run under ThreadSanitizer by
/// `make test-sanitized`.)
@Suite struct LexerConcurrencyTests {
  @Test func emptyAndShortTextsLexedConcurrently() async throws {
    let texts = ["", "a = 1", "", "*true*", ""]
    let kinds = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var tokens = 0
          for _ in 0..<200 {
            for text in texts { tokens += (try? Lexer(text).tokenize().count) ?? -1000 }
          }
          return tokens
        }
      }
      var all: [Int] = []
      for await count in group { all.append(count) }
      return all
    }
    // Each round: 1 (end) + 4 (a, =, 1, end) + 1 + 2 (*true*, end) + 1 tokens.
    #expect(kinds == Array(repeating: 200 * 9, count: 4))
  }
}
