import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A filter whose value does not fit its column (`length >= 1.5`, `length > '60'`) or whose
/// operator the database cannot apply is answered as a filter that does not parse: the list
/// without it, the typed text kept in the form and the reason beside it, in the request's own
/// words (a 400). Before, it was a bare error page, "a value in the request is not valid".
@Suite struct FilterValueErrorTests {
  @Test(arguments: [
    ("length >= 1.5", "length"), ("length > '60'", "length"), ("lastUpdate > 'abc'", "lastUpdate"),
    ("length = true", "length"), ("language = 1", "language"),
  ])
  func theListComesBackWithTheTextAndTheReason(filter: String, property: String) async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Film?where=" + filter.webQuery)
    #expect(page.status == 400, "\(filter)")
    #expect(page.body.contains(#"aria-describedby="e-where""#), "the filter form: \(filter)")
    #expect(page.body.contains(HTML.escape(filter)), "the typed text kept: \(filter)")
    #expect(page.body.contains(property), "the reason names the property: \(filter)")
    #expect(page.body.contains("ACADEMY DINOSAUR"), "the list without the filter: \(filter)")
    let json = await app.get("/Film?where=" + filter.webQuery, accept: "application/json")
    #expect(json.status == 400, "\(filter)")
    #expect(json.body.contains(property), "\(filter): \(json.body)")
  }
}
