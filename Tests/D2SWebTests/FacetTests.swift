import D2SREPL
import D2STesting
import D2SWeb
import Foundation
import Testing

/// Facets (`facet=`, `facetPropertyKeys`, `facets ENTITY … by KEY`): each value of a property
/// among the list's rows with its count, the most frequent first, at most ten; counts follow
/// the filter; a value narrows the list (`where.KEY=LITERAL`) and can be removed; NULLs, many
/// distinct values and a to-one; the same limits as `where=`.
@Suite struct FacetTests {
  /// Colors with NULLs, 30 distinct sizes, a to-one maker (one maker holds no gadget), and a
  /// password.
  static func fixture(_ kind: ShopFixture.Kind) -> String {
    let integer = kind == .sqlite ? "INTEGER" : "integer"
    return """
      CREATE TABLE maker (id \(integer) PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE gadget (id \(integer) PRIMARY KEY, name TEXT NOT NULL, color TEXT,
        size \(integer), maker_id \(integer) REFERENCES maker(id), password TEXT);
      CREATE TABLE part (id \(integer) PRIMARY KEY, gadget_id \(integer) REFERENCES gadget(id));
      INSERT INTO maker VALUES (1, 'Acme'), (2, 'Globex'), (3, 'Initech');
      INSERT INTO gadget VALUES
        (1, 'a', 'red', 1, 1, 'x'), (2, 'b', 'red', 2, 1, 'x'), (3, 'c', 'red', 3, 2, 'y'),
        (4, 'd', 'blue', 4, 2, 'y'), (5, 'e', 'blue', 5, NULL, 'y'), (6, 'f', NULL, 6, 1, 'z'),
        (7, 'g', NULL, 7, 1, 'z'), (8, 'h', NULL, 8, 1, 'z'), (9, 'i', NULL, 9, 2, 'z'),
        (10, 'j', 'green', 10, 2, 'z');
      INSERT INTO gadget SELECT i, 'n' || i, 'green', i, 1, 'p' FROM (SELECT \(kind == .sqlite ? "value AS i FROM json_each('[11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]')" : "generate_series(11, 30) AS i")) AS s;
      """
  }

  static func app(_ kind: ShopFixture.Kind, rules: String = "") throws -> WebApplication {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(fixture(kind), named: "gadgets")
      case .postgresql: try PostgresSakila.database(from: fixture(kind), prefix: "gadgets")
      }
    // The counts are tested here, not the budget: on a machine busy with the other tests,
    // 200 ms can run out ("too slow to count"), as it did in a full run.
    return try WebApplication.open(
      target, rules: [WebFixtures.ruleFile("*true* => facetTimeBudget = 30000\n" + rules)])
  }

  /// The `facets` member of `target`'s JSON: each facet's key, its values as (text, count),
  /// and whether it has more.
  static func facets(_ app: WebApplication, _ target: String) async throws -> [String: (
    values: [(String, Int)], more: Bool
  )] {
    let page = await app.get(target + (target.contains("?") ? "&" : "?") + "format=json")
    #expect(page.status == 200, "\(target): \(page.body)")
    let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
    var result: [String: (values: [(String, Int)], more: Bool)] = [:]
    for facet in object?["facets"] as? [[String: Any]] ?? [] {
      let values = (facet["values"] as? [[String: Any]] ?? []).map {
        ($0["text"] as? String ?? "?", $0["count"] as? Int ?? -1)
      }
      result[facet["key"] as? String ?? "?"] = (values, facet["more"] as? Bool ?? false)
    }
    return result
  }

  @Test(arguments: ShopFixture.kinds)
  func countsAreTheGroupedCountsMostFrequentFirstAndFollowTheFilter(kind: ShopFixture.Kind)
    async throws
  {
    let app = try Self.app(kind)
    let all = try await Self.facets(app, "/Gadget?facet=color,maker")
    #expect(all["color"]?.values.map(\.0) == ["green", "-", "red", "blue"])
    #expect(all["color"]?.values.map(\.1) == [21, 4, 3, 2])
    #expect(all["maker"]?.values.map(\.0) == ["Acme", "Globex", "-"], "a to-one by its title")
    #expect(all["maker"]?.values.map(\.1) == [25, 4, 1])
    let filtered = try await Self.facets(
      app, "/Gadget?facet=color&where=" + "size <= 5".webQuery)
    #expect(filtered["color"]?.values.map(\.1) == [3, 2], "the filter's rows only")
    let many = try await Self.facets(app, "/Gadget?facet=size")
    #expect(many["size"]?.values.count == 10)
    #expect(many["size"]?.more == true, "30 sizes: ten shown, and more")
  }

  @Test(arguments: ShopFixture.kinds)
  func aValueNarrowsTheListAndCanBeRemoved(kind: ShopFixture.Kind) async throws {
    let app = try Self.app(kind)
    let page = await app.get("/Gadget?facet=color,maker&order=id")
    #expect(page.status == 200)
    let links = Page.links(page.body)
    let red = try #require(
      links.first { ($0.removingPercentEncoding ?? $0).contains("where.color='red'") })
    let narrowed = await app.get(red)
    #expect(Page.firstCells(narrowed.body) == ["a", "b", "c"])
    // The other facets' counts follow the value chosen.
    #expect(narrowed.body.contains(#">Acme</a> <span class="count">2</span>"#))
    #expect(narrowed.body.contains(#">Globex</a> <span class="count">1</span>"#))
    let remove = try #require(
      Page.matches(#"<li class="chosen">.*?<a class="clear" href="([^"]*)""#, in: narrowed.body)
        .first.map(Page.unescape))
    #expect(Page.firstCells(await app.get(remove).body).count == 30)
    // NULL is a value too: `where.color=nil`.
    let none = try #require(links.first { $0.contains("where.color=nil") })
    #expect(Page.firstCells(await app.get(none).body) == ["f", "g", "h", "i"])
    let globex = try #require(Page.links(narrowed.body).first { $0.contains("where.maker=2") })
    #expect(Page.firstCells(await app.get(globex).body) == ["c"])
  }

  @Test func theSameLimitsAsAFilter() async throws {
    let app = try Self.app(.sqlite)
    #expect(await app.get("/Gadget?facet=password").status == 400, "a password is never counted")
    #expect(await app.get("/Gadget?facet=nosuch").status == 400)
    #expect(await app.get("/Gadget?facet=parts").status == 400, "a to-many cannot be counted")
    #expect(await app.get("/Gadget?facet=color,size,name,maker,maker.name,color").status == 200)
    let six = await app.get("/Gadget?facet=color&facet=size,name&facet=maker,maker.name,maker.id")
    #expect(six.status == 400)
    // Beyond five with the rules' own, the error says so (not that the key cannot be counted).
    let ruled = try Self.app(
      .sqlite,
      rules: "entity.name = 'Gadget' => facetPropertyKeys = ('color', 'size', 'name', 'maker')")
    #expect(await ruled.get("/Gadget?facet=maker.name,size&format=json").status == 200)
    let over = await ruled.get("/Gadget?facet=maker.name,maker.id&format=json")
    #expect(over.status == 400)
    #expect(over.body.contains("at most 5 facets at once, the rules' included"), "\(over.body)")
    #expect(await app.get("/Gadget?where.password='x'").status == 400)
    #expect(await app.get("/Gadget?where.color=red").status == 400, "a literal of the grammar")
  }

  @Test func aValueIsEscapedInItsTextAndItsLink() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT);
      INSERT INTO tag VALUES (1, '<b onmouseover="x">&'), (2, '<b onmouseover="x">&');
      """, named: "tags")
    let app = try WebApplication.open(path, rules: [])
    let page = await app.get("/Tag?facet=name")
    #expect(page.status == 200)
    #expect(!page.body.contains("<b onmouseover"))
    #expect(
      page.body.contains(
        "&lt;b onmouseover=&quot;x&quot;&gt;&amp;</a> <span class=\"count\">2</span>"))
    let link = try #require(Page.links(page.body).first { $0.contains("where.name=") })
    #expect(Page.firstCells(await app.get(link).body).count == 2, "the value narrows as typed")
  }

  @Test func theRulesGiveFacetsAndTheREPLCountsTheSame() async throws {
    let app = try Self.app(
      .sqlite, rules: "entity.name = 'Gadget' => facetPropertyKeys = ('color', 'maker')")
    let web = try await Self.facets(app, "/Gadget?where=" + "size > 3".webQuery)
    #expect(web["color"]?.values.map(\.1) == [21, 4, 2])
    let page = await app.get("/Gadget")
    #expect(page.body.contains(#"<aside class="facets" aria-label="Facets">"#))
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(try TestDatabases.sqliteFile(Self.fixture(.sqlite), named: "g")))
    let text = try session.run("facets Gadget where size > 3 by color, maker")
    #expect(text.contains("\n  green  21\n") && text.contains("\n  Acme    23\n"), "\(text)")
    #expect(throws: (any Error).self) { try session.run("facets Gadget by password") }
  }

  @Test(arguments: ShopFixture.kinds)
  func theDemoFilmRatingsAreTheGroupedCounts(kind: ShopFixture.Kind) async throws {
    let (_, backend) = try WebEditingTests.demo(kind)
    // The counts are tested here, not the budget: on a machine busy with the other tests,
    // 200 ms can run out ("too slow to count").
    let app = try WebApplication.open(
      backend.target,
      rules: [WebEditingTests.demoRules, WebFixtures.ruleFile("*true* => facetTimeBudget = 30000")]
    )
    let facets = try await Self.facets(app, "/Film?facet=rating&where=" + "length > 100".webQuery)
    let ratings = Dictionary(uniqueKeysWithValues: facets["rating"]?.values ?? [])
    #expect(ratings == ["PG-13": 149, "R": 126, "NC-17": 122, "PG": 113, "G": 100])
  }
}
