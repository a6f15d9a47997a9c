import D2SModel
import EnvKeys
import Testing

/// PostgreSQL's array text, written and read back: what an edit form shows is what it saves.
@Suite struct ArrayTextTests {
  @Test(
    arguments: [
      [], ["7", "8"], ["a", nil, "NULL", "null", "b c", ""],
      [#"quote " and \ slash"#, "{x}", "a,b"],
      ["ü", "tab\there", "line\nbreak"],
      ["\u{a0}x", "\u{0C}", "\u{0B}y", " lead", "trail "],
    ] as [[String?]])
  func whatIsWrittenReadsBackTheSame(items: [String?]) {
    let text = DatabaseValue.arrayText(items)
    #expect(DatabaseValue.parseArrayText(text) == items, "\(text)")
  }

  @Test func spacesAroundElementsAreDroppedAndMalformedTextIsNoArray() {
    #expect(DatabaseValue.parseArrayText(" { 1 , 2 } ") == ["1", "2"])
    #expect(DatabaseValue.parseArrayText("{a, NULL}") == ["a", nil])
    for text in ["", "1,2", "{", "{1,,2}", "{{1},{2}}", #"{"open}"#, "{a}b", "{a,}", "(1, 2)"] {
      #expect(DatabaseValue.parseArrayText(text) == nil, "\(text)")
    }
  }
}
