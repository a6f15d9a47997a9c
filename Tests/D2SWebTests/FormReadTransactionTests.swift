import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A logged-in user's form pages (edit, new, delete, choose, links) read their statements in
/// one SQLite read transaction, as the other pages do: one snapshot, and the file locked
/// once rather than once per statement.
@Suite struct FormReadTransactionTests {
  /// The read transactions and statements the one pooled connection began for `path`.
  static func counts(_ app: WebApplication, _ client: WebClient, _ path: String) async throws
    -> (reads: Int, statements: Int, status: Int)
  {
    func now() async throws -> (Int, Int) {
      try await app.pool.withDatabase { database in
        let adaptor = database.adaptor as? SQLiteAdaptor
        return (adaptor?.readTransactionCount ?? -1, adaptor?.statementCount ?? -1)
      }
    }
    let before = try await now()
    let status = await client.get(path).status
    let after = try await now()
    return (after.0 - before.0, after.1 - before.1, status)
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

  /// The anonymous inspect page, for comparison: it always did.
  @Test func theInspectPageReadsInOneTransaction() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules], connections: 1)
    let (reads, statements, status) = try await Self.counts(app, WebClient(app), "/Film/1")
    #expect(status == 200 && statements > 1 && reads == 1)
  }
}
