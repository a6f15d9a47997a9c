import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A list sorted by a column holding very long text still pages: a Next or Previous link
/// whose position would be too long for a URL moves by offset instead. Before, the link held
/// the whole 20,000-character value and the server answered 414.
@Suite struct LongPositionTests {
  @Test func longValuesPageByOffset() async throws {
    let long = String(repeating: "x", count: 20_000)
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
      INSERT INTO note VALUES (1, 'a'), (2, '\(long)'), (3, 'b'), (4, 'y\(long)'), (5, 'c');
      """, named: "longnotes")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    var seen: [String] = []
    var target: String? = "/Note?limit=2&order=body%20desc"
    var last = ""
    for _ in 0..<10 {
      guard let next = target else { break }
      #expect(next.utf8.count < 4_096, "a link of \(next.utf8.count) bytes")
      let page = await app.get(next)
      #expect(page.status == 200, "\(page.status)")
      seen += Page.matches(#"href="/Note/([0-9]+)""#, in: page.body)
      last = page.body
      target = Page.link(rel: "next", in: page.body)
    }
    #expect(seen == ["4", "2", "5", "3", "1"], "\(seen)")
    let previous = try #require(Page.link(rel: "prev", in: last))
    #expect(previous.utf8.count < 4_096)
    let back = await app.get(previous)
    #expect(back.status == 200)
    #expect(Page.matches(#"href="/Note/([0-9]+)""#, in: back.body) == ["5", "3"])
  }
}
