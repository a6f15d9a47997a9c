import D2SHTML
import Testing

@testable import D2SWeb

/// The byte-level readers of a request's text: the Accept header's search and the query
/// string's decoding, whose fast paths must answer as the slow ones do.
@Suite struct RequestTextTests {
  @Test func acceptIsSearchedForJSON() throws {
    // Quality values and case count (AcceptHeaderTests); the search before the parse must
    // find every mention of JSON.
    for (accept, json) in [
      ("application/json", true), ("text/html, application/json;q=0.9", false),
      ("*/*", false), ("", false), ("application/jso", false), ("xapplication/jsonx", false),
      ("application/JSON", true), ("\u{E9}lan, application/json", true),
    ] {
      let format = try WebFormat.requested([], accept: accept)
      #expect((format == .json) == json, "\(accept)")
    }
    #expect(try WebFormat.requested([], accept: nil) == .html)
    #expect(WebFormat.mentionsJSON("a/JsOn") && !WebFormat.mentionsJSON("jso"))
    #expect(!WebFormat.mentionsJSON("") && WebFormat.mentionsJSON("json"))
  }

  @Test func partsWithNothingToDecodeAreThemselves() throws {
    let query = "limit=50&q=a+b&where=x%20%3D%201&empty=&plain=caf\u{E9}&bad=%zz"
    #expect(HTML.queryParameters(Substring(query)) == nil, "a malformed escape")
    let good = try #require(HTML.queryParameters(Substring(query.replacing("&bad=%zz", with: ""))))
    #expect(good.map(\.0) == ["limit", "q", "where", "empty", "plain"])
    #expect(good.map(\.1) == ["50", "a b", "x = 1", "", "caf\u{E9}"])
    #expect(HTML.percentDecoded("a+b") == "a+b", "a plus is itself outside a query")
  }

  /// `&`, `=` and `/` split where they are, as URL parsers split them: a combining mark
  /// after one (sent unencoded) joins it in a `Character`, never in the bytes.
  @Test func separatorsSplitBeforeACombiningMark() throws {
    let query = "a=\u{301}x&\u{301}b=2&c&&=3"
    let parameters = try #require(HTML.queryParameters(Substring(query)))
    #expect(parameters.map(\.0) == ["a", "\u{301}b", "c", ""])
    #expect(parameters.map(\.1) == ["\u{301}x", "2", "", "3"])
    #expect(WebApplication.segments(of: "/Film/\u{301}1/") == ["Film", "\u{301}1"])
    #expect(WebApplication.segments(of: "/Film//x") == ["Film", "", "x"])
    #expect(WebApplication.segments(of: "/") == [""])
  }
}
