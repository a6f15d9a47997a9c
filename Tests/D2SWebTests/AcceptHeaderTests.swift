import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// `Accept` chooses JSON when it prefers `application/json` to HTML: quality values count
/// (`application/json;q=0` refuses JSON), and media types are read in any case. Before, the
/// header was searched for the words `application/json`.
@Suite struct AcceptHeaderTests {
  @Test(arguments: [
    ("application/json", true), ("APPLICATION/JSON", true),
    ("Application/Json; charset=utf-8", true),
    ("application/json;q=0, text/html", false), ("text/html, application/json;q=0.1", false),
    ("application/json;q=0.9, text/html;q=0.5", true), ("text/html", false), ("*/*", false),
    ("application/json, text/html", true), ("application/jsonx", false),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", false),
    ("application/json ; q=0.000", false), ("application/json;q=1.0", true),
  ])
  func jsonWhenItIsPreferred(accept: String, json: Bool) throws {
    #expect(try WebFormat.requested([], accept: accept).isJSON == json, "\(accept)")
  }
}
