import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// A list page's total on SQLite and PostgreSQL: exact below `exactCountRowLimit`, the
/// database's estimate for an unfiltered list of a larger table, and a count on a second
/// connection, waited for `countTimeBudget` milliseconds, else a lower bound. Each case is
/// made by the keys, never by timing.
@Suite struct CountTests {
  /// 25,000 events, a fifth of them `buy`: counting them takes several steps.
  static func events(_ server: TestServer) -> String {
    let rows =
      server == .sqlite
      ? """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000)
      INSERT INTO event SELECT i, CASE i % 5 WHEN 0 THEN 'buy' ELSE 'view' END, i FROM n;
      """
      : """
      INSERT INTO event SELECT i, CASE i % 5 WHEN 0 THEN 'buy' ELSE 'view' END, i
        FROM generate_series(1, 25000) AS i;
      ANALYZE event;
      """
    return """
      CREATE TABLE event (event_id INTEGER PRIMARY KEY, kind TEXT NOT NULL, amount INTEGER NOT NULL);
      \(rows)
      """
  }

  static func session(_ server: TestServer) throws -> REPLSession {
    try PagingTests.session(server, sql: events(server))
  }

  /// A session where the events are a large table whose filtered lists are counted, however
  /// long that takes.
  static func countingSession(_ server: TestServer) throws -> REPLSession {
    let session = try Self.session(server)
    _ = try session.run("exactCountRowLimit = 1000")
    _ = try session.run("countTimeBudget = 60000")
    return session
  }

  /// The `total` of a JSON list page.
  static func total(_ page: String) throws -> (value: Int, kind: String) {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
    let total = try #require(object["total"] as? [String: Any])
    return (try #require(total["value"] as? Int), try #require(total["kind"] as? String))
  }

  @Test(arguments: TestServer.available)
  func smallTablesAreCountedExactly(server: TestServer) throws {
    let session = try Self.session(server)
    let page = try session.run("list Event where kind = 'buy' limit 3")
    #expect(try Self.total(page) == (5000, "exact"))
    _ = try session.run("platform = 'terminal'")
    #expect(try session.run("list Event limit 3").withoutKeyHint.hasSuffix("\n1–3 of 25000 Event"))
  }

  @Test(arguments: TestServer.available)
  func anUnfilteredLargeTableShowsTheEstimate(server: TestServer) throws {
    let session = try Self.session(server)
    _ = try session.run("exactCountRowLimit = 1000")
    #expect(try Self.total(try session.run("list Event limit 3")) == (25000, "estimate"))
    _ = try session.run("platform = 'terminal'")
    #expect(
      try session.run("list Event limit 3").withoutKeyHint.hasSuffix("\n1–3 of about 25000 Event"))
  }

  @Test(arguments: TestServer.available)
  func aFilteredLargeTableIsCountedWithinTheBudget(server: TestServer) throws {
    let session = try Self.countingSession(server)
    let page = try session.run("list Event where kind = 'buy' order by amount desc limit 3")
    #expect(try Self.total(page) == (5000, "exact"), "counted by the sort or beside the rows")
    _ = try session.run("countTimeBudget = 0")
    let bounded = try session.run("list Event where kind = 'buy' order by amount desc limit 3")
    #expect(try Self.total(bounded) == (3, "atLeast"))
    _ = try session.run("next")
    _ = try session.run("platform = 'terminal'")
    #expect(try session.run("render").withoutKeyHint.hasSuffix("\n4–6 of at least 6 Event"))
    #expect(try session.run("count Event where kind = 'buy'") == "5000")
  }

  /// On SQLite, a first page whose statement sorts every row it selects counts them in its own
  /// scan (`SortTallyTests`); its next page (a keyset window) and a page in an index's order
  /// count beside their rows, as before. The totals are the same.
  @Test(arguments: TestServer.available)
  func sortedAndIndexedPagesOfALargeTableShowTheSameTotal(server: TestServer) throws {
    let session = try Self.countingSession(server)
    let sorted = try session.run("list Event where kind = 'buy' order by amount desc limit 3")
    #expect(try Self.total(sorted) == (5000, "exact"))
    #expect(try Self.total(try session.run("next")) == (5000, "exact"))
    let indexed = try session.run("list Event where kind = 'buy' order by id limit 3")
    #expect(try Self.total(indexed) == (5000, "exact"))
    let none = try session.run("list Event where kind = 'sell' order by amount desc limit 3")
    #expect(try Self.total(none) == (0, "exact"))
  }

  @Test(arguments: TestServer.available)
  func aCountThatWasNotWaitedForIsStoppedAndTheConnectionGoesOn(server: TestServer) throws {
    let session = try Self.session(server)
    _ = try session.run("exactCountRowLimit = 1000")
    _ = try session.run("countTimeBudget = 1")
    for _ in 0..<5 {
      let (value, kind) = try Self.total(try session.run("list Event where amount > 10 limit 2"))
      #expect(kind == "atLeast" ? value >= 2 && value <= 24990 : value == 24990)
    }
    _ = try session.run("countTimeBudget = 60000")
    #expect(
      try Self.total(try session.run("list Event where amount > 10 limit 2")) == (24990, "exact"))
  }
}
