import D2STesting
import D2SWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The routes through Hummingbird's request handling (in process), on SQLite and on
/// PostgreSQL: status codes, content types and the headers every response carries.
@Suite struct HTTPRouteTests {
  static let expectations: [(target: String, status: HTTPResponse.Status, contains: String)] = [
    ("/", .ok, "<a href=\"/Film\">"),
    ("/Film?limit=3&order=title", .ok, "ACADEMY DINOSAUR"),
    ("/Film/1", .ok, "<h1>ACADEMY DINOSAUR</h1>"),
    ("/Film/1/actors", .ok, "PENELOPE"),
    ("/FilmActor/1,1", .ok, "<h1>"),
    ("/Nope", .notFound, "Not found"),
    ("/Film/999999", .notFound, "Not found"),
    ("/Film/1/nope", .notFound, "Not found"),
    ("/Film?where=title%20%3D%3D", .badRequest, #"aria-describedby="e-where""#),
    ("/Film?order=nope", .badRequest, "Bad request"),
    ("/-/static/d2s.css", .ok, "color-scheme"),
    ("/-/health", .ok, "ok"),
  ]

  static func check(_ app: WebApplication) async throws {
    try await app.testApplication().test(.router) { client in
      for expectation in Self.expectations {
        try await client.execute(uri: expectation.target, method: .get) { response in
          #expect(response.status == expectation.status, "\(expectation.target)")
          let body = String(buffer: response.body)
          #expect(body.contains(expectation.contains), "\(expectation.target)")
          #expect(response.headers[.xContentTypeOptions] == "nosniff")
          #expect(
            response.headers[.contentSecurityPolicy]
              == "default-src 'self'; frame-ancestors 'none'")
          #expect(response.headers[values: .init("Referrer-Policy")!] == ["same-origin"])
        }
      }
      try await client.execute(
        uri: "/Film/1", method: .get, headers: [.accept: "application/json"]
      ) { response in
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        #expect(response.headers[.vary] == "Accept")
        #expect(String(buffer: response.body).hasPrefix("{\"page\":\"Inspect\""))
      }
      try await client.execute(uri: "/Film", method: .post) { response in
        #expect(response.status == .methodNotAllowed)
      }
    }
  }

  @Test func routesOnSQLite() async throws {
    try await Self.check(try WebFixtures.sakila())
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil))
  func routesOnPostgreSQL() async throws {
    let app = try WebApplication.open(try PostgresSakila.copy())
    try await Self.check(app)
    let list = await app.get("/Payment?limit=7&order=amount%20desc")
    #expect(list.status == 200)
    let next = try #require(Page.link(rel: "next", in: list.body))
    let second = await app.get(next)
    #expect(second.status == 200, "\(next)")
    #expect(second.body.contains("8–14 of"))
  }
}
