import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A PostgreSQL server of the test's own stops and starts again while d2s-serve runs: pages
/// during the outage are 503 pages that say so, a save then writes nothing, and pages and
/// saves come back with the server, without a restart of d2s-serve.
@Suite(.serialized, .enabled(if: PrivatePostgres.binaries != nil, "no PostgreSQL server installed"))
struct PostgreSQLRestartTests {
  static let schema = """
    CREATE TABLE account (id serial PRIMARY KEY, login text NOT NULL, password text);
    INSERT INTO account (login, password) VALUES ('ann', 'pw');
    CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL, qty integer NOT NULL);
    INSERT INTO item (name, qty) VALUES ('a', 1);
    """

  @Test(.timeLimit(.minutes(2)))
  func anOutageIs503AndPagesAndSavesComeBackWithTheServer() async throws {
    let server = try PrivatePostgres(sql: Self.schema)
    let app = try WebApplication.open(server.url, connections: 2, statementTimeout: 5)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "pw").status == 303)
    let form = await ann.get("/Item/1/-/edit")
    #expect(form.status == 200)

    try server.stop()
    let started = ContinuousClock.now
    let page = await ann.get("/Item/1")
    #expect(page.status == 503)
    #expect(page.body.contains("cannot be reached"))
    #expect(started.duration(to: .now) < .seconds(30), "within the request timeout")
    let save = await ann.post("/Item/1/-/edit", WebEditingTests.change(form.body, "qty", to: "7"))
    #expect(save.status == 503)

    try server.start()
    var back = 0
    for _ in 0..<10 where back != 200 {
      back = await ann.get("/Item/1").status
      if back != 200 { try await Task.sleep(for: .milliseconds(200)) }
    }
    #expect(back == 200, "pages again once the server is back")
    #expect(try server.psql("SELECT qty FROM item WHERE id = 1") == "1", "nothing was written")
    let again = await ann.get("/Item/1/-/edit")
    let saved = await ann.post(
      "/Item/1/-/edit", WebEditingTests.change(again.body, "qty", to: "7"))
    #expect(saved.status == 303)
    #expect(try server.psql("SELECT qty FROM item WHERE id = 1") == "7")
  }
}
