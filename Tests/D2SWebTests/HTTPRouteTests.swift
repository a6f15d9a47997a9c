import D2STesting
import D2SWeb
import Foundation
import Testing

/// The routes through the built `d2s-serve` over real HTTP, on SQLite and on PostgreSQL:
/// status codes, content types and the headers every response carries.
@Suite struct HTTPRouteTests {
  static let expectations: [(target: String, status: Int, contains: String)] = [
    ("/", 200, "<a href=\"/Film\">"),
    ("/Film?limit=3&order=title", 200, "ACADEMY DINOSAUR"),
    ("/Film/1", 200, "<h1>ACADEMY DINOSAUR</h1>"),
    ("/Film/1/actors", 200, "PENELOPE"),
    ("/FilmActor/1,1", 200, "<h1>"),
    ("/Nope", 404, "Not found"),
    ("/Film/999999", 404, "Not found"),
    ("/Film/1/nope", 404, "Not found"),
    ("/Film?where=title%20%3D%3D", 400, #"aria-describedby="e-where""#),
    ("/Film?order=nope", 400, "Bad request"),
    ("/-/static/d2s.css", 200, "color-scheme"),
    ("/-/health", 200, "ok"),
  ]

  /// Asks `d2s-serve` on `target` (a SQLite file or a PostgreSQL URL) every route.
  static func check(_ target: String) throws {
    let folder = try ServeBinaryTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (server, base) = try ServeBinaryTests.start([target], folder: folder)
    defer { server.stop() }
    for expectation in Self.expectations {
      let answer = try LoopbackHTTP.request("GET", base + expectation.target)
      #expect(answer.status == expectation.status, "\(expectation.target)")
      #expect(answer.text.contains(expectation.contains), "\(expectation.target)")
      #expect(answer.headers("X-Content-Type-Options") == ["nosniff"])
      #expect(
        answer.headers("Content-Security-Policy")
          == ["default-src 'self'; frame-ancestors 'none'"])
      #expect(answer.headers("Referrer-Policy") == ["same-origin"])
    }
    let json = try LoopbackHTTP.request(
      "GET", base + "/Film/1", headers: [("Accept", "application/json")])
    #expect(json.headers("Content-Type") == ["application/json; charset=utf-8"])
    #expect(json.headers("Vary") == ["Accept"])
    #expect(json.text.hasPrefix("{\"page\":\"Inspect\""))
    let post = try LoopbackHTTP.request(
      "POST", base + "/Film", body: Data(), contentType: "application/x-www-form-urlencoded")
    #expect(post.status == 405)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path),
      "build d2s-serve first"))
  func routesOnSQLite() throws {
    try Self.check(try SakilaSQLite.copy())
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil
        && FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path)))
  func routesOnPostgreSQL() async throws {
    let target = try PostgresSakila.copy()
    try Self.check(target)
    let app = try WebApplication.open(target)
    let list = await app.get("/Payment?limit=7&order=amount%20desc")
    #expect(list.status == 200)
    let next = try #require(Page.link(rel: "next", in: list.body))
    let second = await app.get(next)
    #expect(second.status == 200, "\(next)")
    #expect(second.body.contains("8–14 of"))
  }
}
