import D2SApplication
import D2STesting
import Foundation
import Testing

@testable import D2SMCP

/// The `list` tool's window: `offset` is the number of the window's first row that `next`
/// gave, so it is never negative; a negative one is refused, not carried into the next
/// window's number.
@Suite struct ListWindowTests {
  static func tools() throws -> AgentTools {
    var app = try D2SApp()
    try app.open(try SakilaSQLite.copy(), readOnly: true)
    return AgentTools(pages: app.pages, user: nil)
  }

  @Test func aNegativeOffsetIsRefused() throws {
    let tools = try Self.tools()
    let first = try #require(tools.call("list", ["entity": "Film", "limit": 2]))
    let text = first.structured ?? ""
    let found = try #require(
      text.range(of: #""after":"[^"]+""#, options: .regularExpression), "\(first)")
    let after = String(text[found].dropFirst(#""after":""#.count).dropLast())
    let negative = try #require(
      tools.call("list", ["entity": "Film", "limit": 2, "after": after, "offset": -7]))
    #expect(negative.error?.contains("offset") == true, "\(negative)")
    let second = try #require(
      tools.call("list", ["entity": "Film", "limit": 2, "after": after, "offset": 2]))
    #expect(second.error == nil, "\(second)")
    #expect(second.structured?.contains(#""offset":4"#) == true, "\(second)")
  }
}
