import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Anonymous pages kept and reused: only while the database is unchanged (another
/// connection's commit, a write on the connection itself), never for a logged-in visitor, an
/// error, a PostgreSQL database or with `--timing`; within the capacity given.
@Suite struct PageCacheTests {
  static let schema = """
    CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
    INSERT INTO note VALUES (1, 'first'), (2, 'other');
    """

  /// Pages kept for an hour, so that a slow test machine never sees one expire.
  static func notes(
    connections: Int? = 1,
    configuration: WebApplication.Configuration = .init(pageCacheLifetime: .seconds(3600))
  ) throws -> (WebApplication, String) {
    let path = try TestDatabases.sqliteFile(schema, named: "notes")
    return (
      try WebApplication.open(path, configuration: configuration, connections: connections),
      path
    )
  }

  /// The statements the pooled connection ran for `body`.
  static func statements(_ app: WebApplication, _ body: () async -> Void) async throws -> Int {
    let before = try await app.pool.withDatabase { $0.adaptor.statementCount }
    await body()
    return try await app.pool.withDatabase { $0.adaptor.statementCount } - before
  }

  /// A page is sent as the bytes it was written into, and kept at its size, not at the room
  /// its writer grew.
  @Test func aKeptPageHoldsItsBytesAndNoMore() async throws {
    let (app, path) = try Self.notes()
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "UPDATE note SET text = 'Grüße ☕ 𝄞' WHERE id = 2"))
    let made = await app.get("/Note/2")
    #expect(made.status == 200)
    #expect(made.body.contains("Grüße ☕ 𝄞"))
    #expect(made.bytes.readableBytes == made.body.utf8.count)
    let usage = app.pageCache.usage
    #expect(usage.pages == 1 && usage.bytes == made.bytes.readableBytes)
    #expect(app.pageCache.heldCapacity < 2 * usage.bytes)
    let kept = await app.get("/Note/2")
    #expect(kept.bytes == made.bytes)
  }

  @Test func aPageIsMadeOnceAndMadeAgainWhenTheDatabaseChanges() async throws {
    let (app, path) = try Self.notes()
    let first = await app.get("/Note/1")
    #expect(first.status == 200)
    #expect(first.body.contains("first"))
    #expect(app.pageCache.usage.pages == 1)
    var again = WebResponse(contentType: "", body: "")
    // Reused: the only statement is the version's.
    #expect(try await Self.statements(app) { again = await app.get("/Note/1") } == 1)
    #expect(again.body == first.body)
    #expect(again.header("Cache-Control") == "no-store")

    // Another connection commits: the page is made anew.
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "UPDATE note SET text = 'second' WHERE id = 1"))
    let second = await app.get("/Note/1")
    #expect(second.body.contains("second") && !second.body.contains("first"))

    // The pooled connection writes itself (its own data_version does not move).
    try await app.pool.withDatabase {
      try $0.adaptor.execute(SQLStatement(raw: "UPDATE note SET text = 'third' WHERE id = 1"))
    }
    let third = await app.get("/Note/1")
    #expect(third.body.contains("third") && !third.body.contains("second"))
  }

  @Test func anExpiredPageIsMadeAnew() async throws {
    let (app, _) = try Self.notes(configuration: .init(pageCacheLifetime: .zero))
    _ = await app.get("/Note/1")
    #expect(try await Self.statements(app) { _ = await app.get("/Note/1") } > 1)
  }

  @Test func everyConnectionSeesAChangeAtOnce() async throws {
    let (app, path) = try Self.notes(connections: 3)
    for _ in 0..<9 { #expect(await app.get("/Note").body.contains("first")) }
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "UPDATE note SET text = 'changed' WHERE id = 1"))
    for _ in 0..<9 {
      let page = await app.get("/Note").body
      #expect(page.contains("changed") && !page.contains("first"))
    }
  }

  @Test func aLoggedInVisitorsPagesAreNeitherKeptNorServedFromTheCache() async throws {
    let (app, _) = try WebEditingTests.demo()
    let anonymous = await app.get("/Film/1")
    #expect(anonymous.body.contains("Log in"))
    let kept = app.pageCache.usage.pages
    #expect(kept == 1)
    let browser = WebClient(app)
    #expect(await browser.login("Mike", "12345").status == 303)
    let mine = await browser.get("/Film/1")
    #expect(mine.body.contains("Mike Hillyer") && mine.body.contains("_csrf"))
    #expect(app.pageCache.usage.pages == kept)
    let stillAnonymous = await app.get("/Film/1")
    #expect(stillAnonymous.body == anonymous.body)
    #expect(!stillAnonymous.body.contains("Mike Hillyer"))
    // A forged session cookie is no session: its visitor gets the anonymous page, no more.
    let session = try #require(browser.cookies["d2s_session"])
    let forged = await app.respond(
      to: WebRequest(target: "/Film/1", cookies: ["d2s_session": "x" + session.dropFirst()]))
    #expect(forged.body == anonymous.body)
  }

  @Test func errorsTimingAndAZeroCapacityKeepNothing() async throws {
    let (app, _) = try Self.notes()
    #expect(await app.get("/Nothing").status == 404)
    #expect(await app.get("/Note/99").status == 404)
    #expect(app.pageCache.usage.pages == 0)

    let (timed, _) = try Self.notes(configuration: .init(timing: true))
    #expect(await timed.get("/Note/1").header("Server-Timing") != nil)
    #expect(timed.pageCache.usage.pages == 0)

    let (off, _) = try Self.notes(configuration: .init(pageCacheBytes: 0))
    #expect(await off.get("/Note/1").status == 200)
    #expect(off.pageCache.usage.pages == 0)
  }

  @Test func htmlAndJSONAreKeptApart() async throws {
    let (app, _) = try Self.notes()
    let html = await app.get("/Note/1")
    let json = await app.get("/Note/1", accept: "application/json")
    #expect(html.body.hasPrefix("<!DOCTYPE html>"))
    #expect(json.body.hasPrefix("{"))
    #expect(await app.get("/Note/1", accept: "application/json").body == json.body)
    #expect(await app.get("/Note/1").body == html.body)
  }

  @Test func replacingTheRulesForgetsThePages() async throws {
    let (app, _) = try Self.notes()
    _ = await app.get("/Note/1")
    #expect(app.pageCache.usage.pages == 1)
    app.replace(app.pageApplication)
    #expect(app.pageCache.usage.pages == 0)
  }

  @Test func theCacheStaysWithinItsCapacity() async throws {
    let capacity = 64 * 1024
    let (app, _) = try WebEditingTests.demo()
    let bounded = WebApplication(
      pages: app.pageApplication, pool: app.pool, databaseName: app.databaseName,
      configuration: .init(pageCacheBytes: capacity))
    for id in 1...40 {
      #expect(await bounded.get("/Film/\(id)").status == 200)
      #expect(bounded.pageCache.usage.bytes <= capacity)
    }
    #expect(bounded.pageCache.usage.pages > 1)
  }

  @Test(.enabled(if: ShopFixture.hasPostgreSQL)) func postgreSQLPagesAreNotKept() async throws {
    let app = try WebApplication.open(try PostgresSakila.copy())
    #expect(await app.get("/Film/1").status == 200)
    #expect(await app.get("/Film/1").status == 200)
    #expect(app.pageCache.usage.pages == 0)
  }
}
