import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A logged-in user's form pages (edit, new, delete, choose, links) and an agent's tool calls
/// read their statements in one SQLite read transaction, as the other pages do: one
/// snapshot, and the file locked once rather than once per statement.
@Suite struct FormReadTransactionTests {
  /// The read transactions and statements the one pooled connection began during `body`,
  /// and what `body` gave.
  static func counts<T>(_ app: WebApplication, _ body: () async throws -> T) async throws
    -> (reads: Int, statements: Int, value: T)
  {
    func now() async throws -> (Int, Int) {
      try await app.pool.withDatabase { database in
        let adaptor = try #require(database.adaptor as? SQLiteAdaptor)
        return (adaptor.readTransactionCount, adaptor.statementCount)
      }
    }
    let before = try await now()
    let value = try await body()
    let after = try await now()
    return (after.0 - before.0, after.1 - before.1, value)
  }

  /// The read transactions and statements the one pooled connection began for `path`.
  static func counts(_ app: WebApplication, _ client: WebClient, _ path: String) async throws
    -> (reads: Int, statements: Int, status: Int)
  {
    let (reads, statements, status) = try await counts(app) { await client.get(path).status }
    return (reads, statements, status)
  }

  @Test(arguments: [
    "/Film/1/-/edit", "/Film/-/new", "/Film/10/-/delete", "/Film/1/-/choose/language",
    "/Film/1/-/links/actors",
  ])
  func aFormPageReadsInOneTransaction(path: String) async throws {
    let database = try SakilaSQLite.copy()
    let app = try WebApplication.open(
      database, rules: [WebEditingTests.demoRules], connections: 1)
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    // The first time reads the user; the second keeps it.
    for _ in 0..<2 {
      let (reads, statements, status) = try await Self.counts(app, mike, path)
      #expect(status == 200, "\(path)")
      #expect(statements >= 1, "\(path)")
      #expect(reads == 1, "\(path): \(statements) statements in \(reads) read transactions")
    }
  }

  /// An agent's call of `tool` with `arguments` (JSON) through `/-/mcp`, with a token of
  /// `scope` made by Mike: the answer's text.
  static func call(
    _ app: WebApplication, _ mike: WebClient, scope: String, _ tool: String, _ arguments: String
  ) async throws -> String {
    let page = await mike.get("/-/tokens")
    let made = await mike.post(
      "/-/tokens",
      [
        ("_csrf", WebClient.csrf(page.body, form: "edit") ?? ""), ("action", "make"),
        ("scope", scope), ("label", "test"),
      ])
    let token = try #require(Page.matches(#"(d2s_[A-Za-z0-9_-]+)"#, in: made.body).first)
    let body =
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":""#
      + tool + #"","arguments":"# + arguments + "}}"
    var request = WebRequest(method: "POST", target: "/-/mcp")
    request.clientAddress = "127.0.0.1"
    let answer = try await app.mcp(
      request, body: Data(body.utf8), authorization: "Bearer " + token, origin: nil)
    return answer.body
  }

  @Test func anAgentsCallReadsInOneTransactionAndItsWritesStillCommit() async throws {
    let database = try SakilaSQLite.copy()
    let writes = try WebFixtures.ruleFile(
      "client = 'mcp' AND user.username = 'Mike' AND entity.name = 'Film' => agentWrites = 'write' ; high"
    )
    let app = try WebApplication.open(
      database, rules: [WebEditingTests.demoRules, writes], connections: 1)
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let (inspectReads, inspectStatements, inspected) = try await Self.counts(app) {
      try await Self.call(app, mike, scope: "read", "inspect", #"{"entity":"Film","key":1}"#)
    }
    #expect(inspected.contains("ACADEMY DINOSAUR"), "\(inspected)")
    #expect(inspectStatements > 1 && inspectReads == 1, "\(inspectStatements) statements")
    let (_, _, edited) = try await Self.counts(app) {
      try await Self.call(
        app, mike, scope: "write", "edit",
        #"{"entity":"Film","key":1,"values":{"length":99},"seen":{"length":86}}"#
      )
    }
    #expect(!edited.contains("\"isError\":true"), "\(edited)")
    var stored = ""
    try SQLiteAdaptor(path: database).query(
      SQLStatement(raw: "SELECT length FROM film WHERE film_id = 1"), columns: [nil]
    ) { stored = $0[0].intValue.map(String.init) ?? "" }
    #expect(stored == "99", "\(edited)")
  }

  /// The anonymous inspect page, for comparison: it always did. Its three to-manys are
  /// counted in one statement: it runs four (the database's version for the page cache, the
  /// film, its language, the counts).
  @Test func theInspectPageReadsInOneTransaction() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules], connections: 1)
    let (reads, statements, status) = try await Self.counts(app, WebClient(app), "/Film/1")
    #expect(status == 200 && reads == 1)
    #expect(statements == 4)
    let page = await WebClient(app).get("/Film/1").body
    for (relationship, count) in [("actors", 10), ("categories", 1), ("inventories", 8)] {
      #expect(
        page.contains(#"<a href="/Film/1/\#(relationship)">\#(count)</a>"#), "\(relationship)")
    }
  }

}
