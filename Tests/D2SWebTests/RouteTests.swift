import D2SWeb
import Foundation
import Testing

/// Every route and status of the read side, on the Sakila sample (SQLite).
@Suite struct RouteTests {
  @Test func theEntityListLinksEveryEntityInAWholePage() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/")
    #expect(page.status == 200)
    #expect(page.contentType == "text/html; charset=utf-8")
    #expect(page.body.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(page.body.contains("<title>"))
    #expect(page.body.components(separatedBy: "<h1>").count == 2, "one h1")
    #expect(page.body.contains("name=\"viewport\""))
    let links = Page.links(page.body)
    #expect(links.contains("/Film"))
    #expect(links.contains("/FilmActor"))
    #expect(page.header("Vary") == "Accept")
    #expect(page.header("Content-Security-Policy") == "default-src 'self'; frame-ancestors 'none'")
    #expect(page.header("X-Content-Type-Options") == "nosniff")
    #expect(page.header("Referrer-Policy") == "same-origin")
  }

  @Test func aListSortsFiltersAndPagesByPosition() async throws {
    let app = try WebFixtures.sakila()
    let first = await app.get("/Film?order=title&limit=5")
    #expect(first.status == 200)
    #expect(
      Page.firstCells(first.body) == [
        "ACADEMY DINOSAUR", "ACE GOLDFINGER", "ADAPTATION HOLES", "AFFAIR PREJUDICE",
        "AFRICAN EGG",
      ])
    #expect(
      first.body.contains(
        #"<th scope="col" aria-sort="ascending"><a href="/Film?limit=5&amp;order=title%20desc">Title</a></th>"#
      ))
    #expect(first.body.contains("1–5 of 1000 Film"))
    #expect(Page.link(rel: "prev", in: first.body) == nil)
    let next = try #require(Page.link(rel: "next", in: first.body))
    #expect(next.hasPrefix("/Film?order=title&limit=5&after="))
    let second = await app.get(next)
    #expect(second.status == 200)
    #expect(
      Page.firstCells(second.body) == [
        "AGENT TRUMAN", "AIRPLANE SIERRA", "AIRPORT POLLOCK", "ALABAMA DEVIL", "ALADDIN CALENDAR",
      ])
    #expect(second.body.contains("6–10 of 1000 Film"))
    let back = try #require(Page.link(rel: "prev", in: second.body))
    let again = await app.get(back)
    #expect(Page.firstCells(again.body) == Page.firstCells(first.body))

    let filtered = await app.get("/Film?where=" + "title like 'ACE*'".webQuery + "&order=title")
    #expect(Page.firstCells(filtered.body) == ["ACE GOLDFINGER"])
    #expect(
      filtered.body.contains(#"value="title like &#39;ACE*&#39;""#), "the form keeps the filter")
    #expect(Page.unlabelledControls(filtered.body).isEmpty)
  }

  @Test func pagingAWholeListVisitsEveryRowOnce() async throws {
    let app = try WebFixtures.sakila()
    var target: String? = "/Category?limit=4&order=name%20desc"
    var seen: [String] = []
    for _ in 0..<10 {
      guard let current = target else { break }
      let page = await app.get(current)
      #expect(page.status == 200)
      seen += Page.firstCells(page.body)
      target = Page.link(rel: "next", in: page.body)
    }
    #expect(target == nil, "the last page has no Next")
    #expect(seen.count == 16)
    #expect(Set(seen).count == 16)
    #expect(seen == seen.sorted(by: >))
  }

  @Test func inspectLinksToOnesAndToManys() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Film/1")
    #expect(page.status == 200)
    #expect(page.body.contains("<h1>ACADEMY DINOSAUR</h1>"))
    let links = Page.links(page.body)
    #expect(links.contains("/Language/1"))
    #expect(links.contains("/Film/1/actors"))
    let actors = await app.get("/Film/1/actors")
    #expect(actors.status == 200)
    #expect(actors.body.contains("10 Actor"))
    let language = await app.get("/Film/1/language")
    #expect(language.status == 200)
    #expect(language.body.contains("<h1>English</h1>"))
    let pair = await app.get("/FilmActor/1,1")
    #expect(pair.status == 200)
    let list = await app.get("/Rental?limit=3")
    #expect(Page.links(list.body).contains("/Customer/130"), "a to-one cell links to its object")
    #expect(Page.links(list.body).contains("/Rental/1"))
  }

  @Test func unknownNamesAndKeysAreNotFound() async throws {
    let app = try WebFixtures.sakila()
    for target in [
      "/Nope", "/Film/999999", "/Film/abc", "/Film/1/nope", "/Film/1/actors/2", "/FilmActor/1",
      "/-/nope", "/Film/1,2",
    ] {
      let page = await app.get(target)
      #expect(page.status == 404, "\(target)")
      #expect(page.body.contains("<h1>Not found</h1>"), "\(target)")
      #expect(page.header("X-Content-Type-Options") == "nosniff")
    }
  }

  @Test func badParametersAreBadRequestsThatSayWhy() async throws {
    let app = try WebFixtures.sakila()
    let syntax = await app.get("/Film?where=" + "title = = 1".webQuery)
    #expect(syntax.status == 400)
    #expect(syntax.body.contains("at column"))
    let json = await app.get("/Film?where=" + "title = = 1".webQuery, accept: "application/json")
    #expect(json.status == 400)
    #expect(json.body.contains("\"column\":"))
    for target in [
      "/Film?order=nope", "/Film?limit=5000", "/Film?limit=0", "/Film?after=garbage",
      "/Film?after=i1,i2", "/Film?order=title%20sideways", "/Film?offset=-3",
      "/Film?where=" + "nope = 1".webQuery,
      "/Film?where=" + Self.nested(70).webQuery, "/Film?after=t1e19",
      "/Film?after=i0&offset=9223372036854775807", "/Film?after=sabc",
      "/Rental?where=customer%20%3D%201", "/Rental?order=customer", "/Film?order=actors.firstName",
      "/Film?where=" + "@count > 1".webQuery, "/Film?order=language.name.x",
    ] {
      let page = await app.get(target)
      #expect(page.status == 400, "\(target)")
      #expect(!page.body.contains("SELECT"), "\(target)")
    }
  }

  /// A filter nested `depth` deep, alternating AND and OR so that nothing flattens it.
  static func nested(_ depth: Int) -> String {
    (0..<depth).reduce("title = 'x'") { inner, level in
      "(title = 'y' \(level.isMultiple(of: 2) ? "and" : "or") \(inner))"
    }
  }

  /// The `after=` token of `page`'s Next link.
  static func nextToken(_ page: WebResponse) throws -> String {
    let next = try #require(Page.link(rel: "next", in: page.body))
    let query = try #require(next.split(separator: "?").last)
    let after = try #require(HTML.queryParameters(query)?.first { $0.0 == "after" })
    return after.1
  }

  @Test func aPreviousWindowNearTheStartIsTheFirstWindow() async throws {
    let app = try WebFixtures.sakila()
    // A position of this list (its fingerprint) at film 30.
    let token = try Self.nextToken(await app.get("/Film?limit=50"))
    let fingerprint = try #require(token.split(separator: ".").first)
    let page = await app.get("/Film?before=\(fingerprint).i30&offset=100&limit=50")
    #expect(page.status == 200)
    #expect(page.body.contains("1–50 of 1000 Film"))
    #expect(Page.link(rel: "prev", in: page.body) == nil)
    #expect(Page.link(rel: "next", in: page.body)?.contains("offset=50") == true)
  }

  /// A position is bound to its list: read in a list of another order, filter, entity or
  /// to-many owner it is a 400 that says so, never a window of wrong rows.
  @Test func aPositionOfAnotherListIsABadRequest() async throws {
    let app = try WebFixtures.sakila()
    let byTitle = try Self.nextToken(await app.get("/Film?order=title&limit=5"))
    #expect(await app.get("/Film?order=title&limit=5&after=\(byTitle)").status == 200)
    let actors = try Self.nextToken(await app.get("/Film/1/actors?limit=2"))
    #expect(await app.get("/Film/1/actors?limit=2&after=\(actors)").status == 200)
    for target in [
      "/Film?order=description&limit=5&after=\(byTitle)",
      "/Film?order=title%20desc&limit=5&before=\(byTitle)",
      "/Film?order=title&where=" + "length > 60".webQuery + "&after=\(byTitle)",
      "/Category?order=name&after=\(byTitle)",
      "/Film/2/actors?limit=2&after=\(actors)",
    ] {
      let page = await app.get(target)
      #expect(page.status == 400, "\(target)")
      #expect(page.body.contains("belongs to another list"), "\(target)")
    }
  }

  @Test func otherMethodsAndHeadRequests() async throws {
    let app = try WebFixtures.sakila()
    let post = await app.respond(to: WebRequest(method: "POST", target: "/Film"))
    #expect(post.status == 405)
    let head = await app.respond(to: WebRequest(method: "HEAD", target: "/Film/1"))
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    let css = await app.get("/-/static/d2s.css")
    #expect(css.status == 200)
    #expect(css.contentType.hasPrefix("text/css"))
    let health = await app.get("/-/health")
    #expect(health.body == "ok\n")
  }
}

extension String {
  /// Percent-encoded as a query value.
  var webQuery: String {
    addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self
  }
}
