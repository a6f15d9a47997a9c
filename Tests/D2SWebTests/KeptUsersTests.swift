import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A logged-in user read once per pooled connection and reused while nothing changed
/// (`KeptUsers`): never past a commit of another connection, a write of its own, a change to
/// the object or new rules.
@Suite struct KeptUsersTests {
  /// The demo with one pooled connection (every request on it), and its database's path.
  static func demo() throws -> (WebApplication, String) {
    let path = try SakilaSQLite.copy()
    return (
      try WebApplication.open(path, rules: [WebEditingTests.demoRules], connections: 1), path
    )
  }

  /// The statements the pooled connection ran for `body`.
  static func statements(_ app: WebApplication, _ body: () async -> Void) async throws -> Int {
    try await PageCacheTests.statements(app, body)
  }

  /// Another connection's commit: `sql` run on its own connection to the file.
  static func commit(_ path: String, _ sql: String) throws {
    try SQLiteAdaptor(path: path).execute(SQLStatement(raw: sql))
  }

  @Test func theUsersRowIsReadOnceWhileTheDatabaseIsUnchanged() async throws {
    let (app, path) = try Self.demo()
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    #expect(await mike.get("/Film/1").body.contains("Mike Hillyer"))
    let kept = try await Self.statements(app) { await mike.get("/Film/1") }
    #expect(try await Self.statements(app) { await mike.get("/Film/1") } == kept)
    // A commit elsewhere (of a row the page does not show): the user's row is read again.
    try Self.commit(path, "UPDATE actor SET last_name = last_name WHERE actor_id = 200")
    #expect(try await Self.statements(app) { await mike.get("/Film/1") } == kept + 1)
    #expect(try await Self.statements(app) { await mike.get("/Film/1") } == kept)
    // Another session of the same user is kept beside it.
    let again = WebClient(app)
    #expect(await again.login("Mike", "12345").status == 303)
    #expect(await again.get("/Film/1").body.contains("Mike Hillyer"))
    #expect(try await Self.statements(app) { await mike.get("/Film/1") } == kept)
    #expect(try await Self.statements(app) { await again.get("/Film/1") } == kept)
  }

  @Test func aChangedNameShowsOnTheNextPage() async throws {
    let (app, path) = try Self.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(await mike.get("/Film/2").body.contains("Mike Hillyer"))
    try Self.commit(path, "UPDATE staff SET first_name = 'Michael' WHERE staff_id = 1")
    let page = await mike.get("/Film/2")
    #expect(page.body.contains("Michael Hillyer") && !page.body.contains("Mike Hillyer"))
  }

  @Test func aChangedPasswordEndsTheSessionThoughItsUserWasKept() async throws {
    let (app, path) = try Self.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(await mike.get("/Film/1/-/edit").status == 200)
    #expect(await mike.get("/Film/1/-/edit").status == 200)
    try Self.commit(path, "UPDATE staff SET password = 'changed' WHERE staff_id = 1")
    #expect(await mike.get("/Film/1/-/edit").status == 303)
  }

  @Test func theConnectionsOwnSaveIsSeen() async throws {
    let (app, path) = try Self.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(await mike.get("/Film/1").body.contains("Mike Hillyer"))
    // Mike renames himself through the pooled connection itself.
    try await app.pool.withDatabase {
      try $0.adaptor.execute(
        SQLStatement(raw: "UPDATE staff SET first_name = 'Mick' WHERE staff_id = 1"))
    }
    #expect(await mike.get("/Film/1").body.contains("Mick Hillyer"))
    #expect(
      try WebEditingTests.stored(path, "SELECT first_name FROM staff WHERE staff_id = 1") == "Mick")
  }

  @Test func newRulesRetitleTheKeptUser() async throws {
    let (app, path) = try Self.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(await mike.get("/Film/1").body.contains("Mike Hillyer"))
    let retitled = try WebApplication.open(
      path,
      rules: [
        WebEditingTests.demoRules,
        try WebFixtures.ruleFile("entity.name = 'Staff' => title = object.lastName"),
      ], connections: 1)
    app.replace(retitled.pageApplication)
    let page = await mike.get("/Film/1")
    #expect(page.status == 200)
    #expect(!page.body.contains("Mike Hillyer") && page.body.contains("Hillyer"))
  }
}
