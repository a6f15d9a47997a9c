import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A filter's work is bounded before any SQL runs: at most 8 comparisons across a to-many
/// (each a subquery run per row) and at most 5 wildcards in a pattern (each a backtracking
/// point). Before, 100 such comparisons or'd together on the demo's customers ran PostgreSQL
/// for 8 s past a cancel, and 200 for SQLite's whole 10 s.
@Suite struct FilterWorkTests {
  @Test func aFilterOfUnboundedWorkIsRefused() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules],
      configuration: .init(pageCacheBytes: 0))
    let many = (0..<9).map { "rentals.inventory.film.length = \($0)" }.joined(separator: " or ")
    let refused = await app.get("/Customer?where=" + many.webQuery)
    #expect(refused.status == 400)
    #expect(
      refused.body.contains("at most 8 comparisons across to-many"), "\(refused.body.prefix(500))")
    let few = (0..<8).map { "rentals.inventory.film.length = \($0)" }.joined(separator: " or ")
    #expect(await app.get("/Customer?where=" + few.webQuery).status == 200)
    let wild = await app.get("/Film?where=" + "title like '*a*e*i*o*u*'".webQuery)
    #expect(
      wild.status == 400 && wild.body.contains("at most 5 wildcards"), "\(wild.body.prefix(500))")
    #expect(await app.get("/Film?where=" + "title like '*a*e*i*'".webQuery).status == 200)
    // Escaped stars are no wildcards.
    let stars = #"title like 'a\\*\\*\\*\\*\\*\\**'"#
    #expect(await app.get("/Film?where=" + stars.webQuery).status == 200)
    // A search whose keys cross a to-many is bounded the same way.
    let searching = try WebApplication.open(
      try SakilaSQLite.copy(),
      rules: [
        try WebFixtures.ruleFile(
          "entity.name = 'Film' => searchPropertyKeys = ('title', 'actors.lastName')")
      ], configuration: .init(pageCacheBytes: 0))
    #expect(await searching.get("/Film?q=a%20b").status == 200)
    let words = await searching.get("/Film?q=a%20b%20c%20d%20e")
    #expect(words.status == 400 && words.body.contains("comparisons across to-many"))
    // The same limits for agents.
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let answer = try await FormReadTransactionTests.call(
      app, mike, scope: "read", "list", #"{"entity":"Customer","where":"\#(many)"}"#)
    #expect(answer.contains("at most 8 comparisons across to-many"), "\(answer.prefix(400))")
  }
}
