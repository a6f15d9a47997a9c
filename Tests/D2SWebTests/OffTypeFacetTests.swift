import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A facet value of another kind than its column (SQLite keeps what it is given: text and
/// 1.5 in an INTEGER column, text that is not UTF-8, a blob, a timestamp column's text in
/// another form; PostgreSQL's `infinity` and `NaN`) has a link that narrows the list to the
/// rows holding exactly that value. Before, such links answered 400 (the value's text did not
/// fit the column) or found no row (the text was read as a date and bound in another form).
@Suite struct OffTypeFacetTests {
  /// Follows each value link of `key`'s facet on `list` and checks that it shows as many rows
  /// as the facet counted, each of them holding the value (by its id in `expected`).
  static func eachLinkNarrowsToItsRows(
    _ app: WebApplication, list: String, key: String, expected: [String: Set<String>]
  ) async throws {
    let page = await app.get("\(list)?facet=\(key)&limit=50")
    #expect(page.status == 200, "\(page.body)")
    let links = Page.links(page.body).filter { $0.contains("where.\(key)=") }
    #expect(links.count == expected.count, "every value shown: \(links)")
    var found: [Set<String>] = []
    for link in links {
      let narrowed = await app.get(link)
      #expect(narrowed.status == 200, "\(link): \(narrowed.body.prefix(300))")
      let ids = Set(Page.matches(#"href="\#(list)/([0-9]+)""#, in: narrowed.body))
      found.append(ids)
    }
    #expect(Set(found) == Set(expected.values), "\(key): \(found)")
  }

  @Test func sqliteValuesOfAnotherKind() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE thing (id INTEGER PRIMARY KEY, n INTEGER, t TEXT, b BLOB, at TIMESTAMP);
      INSERT INTO thing VALUES
        (1, 'abc', CAST(x'ff41' AS TEXT), x'00ff', '2024-01-01T10:00:00Z'),
        (2, 1.5, 'plain', x'00ff', '2024-01-01T10:00:00Z'),
        (3, 7, CAST(x'ff41' AS TEXT), x'01', '2024-01-02 10:00:00'),
        (4, 'abc', 'plain', NULL, NULL),
        (5, 7, 'plain', x'01', '2024-01-02 10:00:00');
      """, named: "offtype")
    let app = try WebApplication.open(
      path, rules: [WebFixtures.ruleFile("*true* => facetTimeBudget = 30000")],
      configuration: .init(pageCacheBytes: 0))
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "n", expected: ["abc": ["1", "4"], "1.5": ["2"], "7": ["3", "5"]])
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "t", expected: ["ff41": ["1", "3"], "plain": ["2", "4", "5"]])
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "b",
      expected: ["00ff": ["1", "2"], "01": ["3", "5"], "nil": ["4"]])
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "at",
      expected: ["z": ["1", "2"], "space": ["3", "5"], "nil": ["4"]])
  }

  @Test(.enabled(if: ShopFixture.hasPostgreSQL))
  func postgresValuesNoLiteralWrites() async throws {
    let url = try PostgresSakila.database(
      from: """
        CREATE TABLE thing (id integer PRIMARY KEY, at timestamp, f double precision,
          m numeric);
        INSERT INTO thing VALUES
          (1, 'infinity', 'NaN', 'NaN'), (2, '-infinity', '-Infinity', 1.5),
          (3, 'infinity', 'Infinity', 'NaN'), (4, '2024-01-02 10:00:00', 2.5, 1.5);
        """, prefix: "offtype")
    let app = try WebApplication.open(
      url, rules: [WebFixtures.ruleFile("*true* => facetTimeBudget = 30000")],
      configuration: .init(pageCacheBytes: 0))
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "at",
      expected: ["infinity": ["1", "3"], "-infinity": ["2"], "date": ["4"]])
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "f",
      expected: ["NaN": ["1"], "-Infinity": ["2"], "Infinity": ["3"], "2.5": ["4"]])
    try await Self.eachLinkNarrowsToItsRows(
      app, list: "/Thing", key: "m", expected: ["NaN": ["1", "3"], "1.5": ["2", "4"]])
  }
}
