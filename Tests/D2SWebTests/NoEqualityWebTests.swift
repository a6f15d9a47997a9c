import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A list of a PostgreSQL table with columns whose type has no exact `=` (`json`, `point`):
/// such a column is no sort link, and sorting or counting it is a 400 that says why; `=`
/// compares its text. Before, each answered 500 ("could not identify an ordering operator").
@Suite(.enabled(if: ShopFixture.hasPostgreSQL))
struct NoEqualityWebTests {
  @Test func suchColumnsAreFilteredByTheirTextAndNeverSorted() async throws {
    let url = try PostgresSakila.database(
      from: """
        CREATE TABLE doc (id serial PRIMARY KEY, name text, meta json, p point);
        INSERT INTO doc (name, meta, p) VALUES ('one', '{"a": 1}', '(1,2)'), ('two', NULL, NULL),
          ('three', '[]', '(0,0)');
        """, prefix: "noequality")
    let app = try WebApplication.open(url, configuration: .init(pageCacheBytes: 0))
    let list = await app.get("/Doc")
    #expect(list.status == 200)
    #expect(list.body.contains("order=name") && !list.body.contains("order=meta"))
    for target in ["/Doc?order=meta", "/Doc?order=p%20desc", "/Doc?facet=meta"] {
      let refused = await app.get(target)
      #expect(refused.status == 400, "\(target)")
      #expect(refused.body.contains("cannot be sorted or counted"), "\(target): \(refused.body)")
    }
    let json = await app.get("/Doc?where=" + #"meta = '{"a": 1}'"#.webQuery)
    #expect(json.status == 200 && json.body.contains(">one<") && !json.body.contains(">three<"))
    let point = await app.get("/Doc?where=" + "p = '(0,0)'".webQuery)
    #expect(point.status == 200 && point.body.contains(">three<") && !point.body.contains(">one<"))
    let ordered = await app.get("/Doc?where=" + "meta < 'x'".webQuery)
    #expect(ordered.status == 400 && ordered.body.contains("compare it with = or in"))
  }

  /// An array column has its `=` (PostgreSQL's `array_ops`): filtered and sorted as before.
  @Test func arraysKeepTheirEquality() async throws {
    let url = try PostgresSakila.database(
      from: """
        CREATE TABLE tagged (id serial PRIMARY KEY, tags text[]);
        INSERT INTO tagged (tags) VALUES ('{a,b}'), ('{c}'), (NULL);
        """, prefix: "arrays")
    let app = try WebApplication.open(url, configuration: .init(pageCacheBytes: 0))
    #expect(await app.get("/Tagged?order=tags").status == 200)
    let filtered = await app.get("/Tagged?where=" + "tags = ('a', 'b')".webQuery + "&format=json")
    #expect(filtered.status == 200 && filtered.body.contains(#""key":[1]"#), "\(filtered.body)")
    #expect(!filtered.body.contains(#""key":[2]"#))
  }
}
