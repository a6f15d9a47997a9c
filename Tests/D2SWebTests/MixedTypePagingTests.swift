import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// Paging a list sorted by a column that holds values of another type than its own (SQLite
/// keeps text in an INTEGER column) reaches every row once. Before, the Next link after a
/// text value was refused ("a value of the position does not fit its column"): the rows
/// after it could not be reached.
@Suite struct MixedTypePagingTests {
  @Test(arguments: ["big", "big desc"])
  func everyRowIsReachedOnce(order: String) async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE thing (id INTEGER PRIMARY KEY, big INTEGER);
      INSERT INTO thing VALUES (1, 5), (2, 'notanumber'), (3, 1), (4, 'zzz'), (5, 3.5),
        (6, NULL), (7, x'00ff'), (8, 2);
      """, named: "mixed")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    var seen: [String] = []
    var target: String? = "/Thing?limit=2&order=" + order.webQuery
    for _ in 0..<10 {
      guard let next = target else { break }
      let page = await app.get(next)
      #expect(page.status == 200, "\(next): \(page.body)")
      seen += Page.matches(#"href="/Thing/([0-9]+)""#, in: page.body)
      target = Page.link(rel: "next", in: page.body)
    }
    #expect(seen.count == 8 && Set(seen).count == 8, "\(seen)")
  }
}
