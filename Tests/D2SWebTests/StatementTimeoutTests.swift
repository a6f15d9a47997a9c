import D2SModel
import D2STesting
import D2SWeb
import Foundation
import SQLiteAdaptor
import Synchronization
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
    // Timed on the connection's own thread: the awaits around it wait for Swift's shared
    // threads, which other tests' blocking work can hold for seconds on a loaded machine.
    let ran = Mutex<Duration?>(nil)
    await #expect(throws: DatabaseError.self) {
      try await pool.withDatabase { database in
        let started = ContinuousClock.now
        defer { ran.withLock { $0 = started.duration(to: .now) } }
        try database.adaptor.query(Self.endless, columns: [nil]) { _ in }
      }
    }
    let elapsed = ran.withLock { $0 }
    #expect(
      elapsed.map { $0 < .seconds(20) } == true, "the statement ran \(String(describing: elapsed))")
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
