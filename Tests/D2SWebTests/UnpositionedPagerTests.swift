import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A list without positions to page by (a view has no key) moves by offset: its last full
/// window has no Next link, which would lead to an empty page.
@Suite struct UnpositionedPagerTests {
  @Test func theLastFullWindowOfAViewHasNoNext() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE n (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
      WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 100)
        INSERT INTO n SELECT i, 'row ' || i FROM k;
      CREATE VIEW numbers AS SELECT id, label FROM n;
      """, named: "pager")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    let first = await app.get("/Numbers?limit=50&order=id")
    #expect(first.status == 200)
    #expect(first.body.contains(#"rel="next""#), "50 more follow")
    let last = await app.get("/Numbers?limit=50&order=id&offset=50")
    #expect(last.status == 200)
    #expect(last.body.contains("row 100"))
    #expect(!last.body.contains(#"rel="next""#), "nothing follows the last window")
    #expect(last.body.contains(#"rel="prev""#))
  }
}
