import EnvKeys
import Testing

/// PostgreSQL's array text of any shape read (issue 40): bounds, dimensions, quoting, NULLs;
/// anything else is no array.
@Suite struct ArrayTextTests {
  @Test func shapesAndQuotingRead() throws {
    let bounded = try #require(ArrayText.parse("[0:1]={1.1,2.2}"))
    #expect(bounded.lowerBounds == [0])
    #expect(bounded.elements == [.item("1.1"), .item("2.2")])
    let matrix = try #require(ArrayText.parse("{{1,2,3,4},{2,3,4,5}}"))
    #expect(matrix.lowerBounds == [1, 1])
    #expect(matrix.elements.count == 2)
    let quoted = try #require(ArrayText.parse(#"{{",",NULL},{"3","NULL"}}"#))
    #expect(
      quoted.elements == [
        .array([.item(","), .item(nil)]), .array([.item("3"), .item("NULL")]),
      ])
    let escaped = try #require(ArrayText.parse(#"{"a\"b","c\\d","{}"," x "}"#))
    #expect(escaped.elements == [.item("a\"b"), .item("c\\d"), .item("{}"), .item(" x ")])
    #expect(ArrayText.parse("[1:2][3:4]={{1,2},{3,4}}")?.lowerBounds == [1, 3])
    #expect(ArrayText.parse("{}")?.elements == [])
  }

  @Test(arguments: ["", "{", "{1,", "{1}}", "[0:1]{1}", "[0:1][0:1]={1,2}", "abc", "{,}", "{\"a}"])
  func otherTextIsNoArray(text: String) {
    #expect(ArrayText.parse(text) == nil)
  }
}
