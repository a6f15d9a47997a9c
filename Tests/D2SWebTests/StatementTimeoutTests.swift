import D2SModel
import D2STesting
import D2SWeb
import Foundation
import SQLiteAdaptor
import Testing

/// `--statement-timeout`: a request's statements stop once its time is up, the connection
/// serves the next request, and the page says only that it took too long.
@Suite struct StatementTimeoutTests {
  static let endless = SQLStatement(
    raw:
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")

  @Test(.timeLimit(.minutes(1)))
  func aStatementPastTheTimeoutStopsAndTheConnectionServesOn() async throws {
    let path = try SakilaSQLite.copy()
    let model = try Database(adaptor: try SQLiteAdaptor(path: path)).model
    let pool = DatabasePool(size: 1, statementTimeout: .milliseconds(200), model: model) {
      try SQLiteAdaptor(path: path)
    }
    let started = ContinuousClock.now
    await #expect(throws: DatabaseError.self) {
      try await pool.withDatabase { database in
        try database.adaptor.query(Self.endless, columns: [nil]) { _ in }
      }
    }
    #expect(started.duration(to: .now) < .seconds(20))
    let count = try await pool.withDatabase { database in
      try database.count(FetchSpecification(entityName: "Language"))
    }
    #expect(count == 6, "the same connection, with no deadline left over")
  }

  @Test func theTimeoutPageSaysOnlyThatItTookTooLong() async throws {
    let app = try WebFixtures.sakila()
    let page = app.errorPage(for: DatabaseError(.interrupted, "interrupted", sql: "SELECT 1"))
    #expect(page.status == 503)
    #expect(page.body.contains("the page took longer than the server allows"))
    #expect(!page.body.contains("SELECT"))
  }
}
