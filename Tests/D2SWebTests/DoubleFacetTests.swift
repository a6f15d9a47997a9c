import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// Every value of a REAL column has a facet link that narrows the list to its own row: a
/// double that no 38-digit decimal writes exactly (1e308, 5e-324) is written as its text
/// (`'1e+308'`), which a double column reads as that double. Before, each became `0.0` and
/// its link showed the row holding 0.
@Suite struct DoubleFacetTests {
  static let values = [
    "1e308", "-1e308", "1e165", "1e-130", "1e-300", "5e-324", "0", "1.5", "0.1",
    "123456789012345678", "0.30000000000000004",
  ]

  @Test func eachValuesLinkNarrowsToItsRow() async throws {
    let rows = Self.values.enumerated().map { "(\($0.offset + 1), \($0.element))" }
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE num (id INTEGER PRIMARY KEY, d REAL NOT NULL);
      INSERT INTO num VALUES \(rows.joined(separator: ", "));
      """, named: "doubles")
    let app = try WebApplication.open(
      path, rules: [WebFixtures.ruleFile("*true* => facetTimeBudget = 30000")],
      configuration: .init(pageCacheBytes: 0))
    let page = await app.get("/Num?facet=d&limit=50")
    #expect(page.status == 200)
    let links = Page.links(page.body).filter { $0.contains("where.d=") }
    #expect(links.count == 10, "ten values shown: \(links)")
    var seen = Set<String>()
    for link in links {
      let narrowed = await app.get(link)
      #expect(narrowed.status == 200, "\(link)")
      let ids = Page.matches(#"href="/Num/([0-9]+)""#, in: narrowed.body)
      #expect(ids.count == 1, "\(link): \(ids)")
      seen.formUnion(ids)
    }
    #expect(seen.count == links.count, "each link its own row")
  }
}
