import D2SREPL
import D2STesting
import D2SWeb
import Foundation
import Testing

/// The query page (`/ENTITY/-/query`, `query ENTITY`): a control per property by its type,
/// the qualifier it makes shown in the list's filter, its JSON the REPL's; a value a control
/// does not take is a 400 with the form kept.
@Suite struct QueryPageTests {
  static let form: [(String, String)] = [
    ("run", "1"), ("title.op", "starts with"), ("title", "a"), ("length.from", "60"),
    ("length.to", "100"), ("rating", "'PG'"),
  ]

  @Test(arguments: ShopFixture.kinds)
  func theFormMakesTheFilterAndTheListHasItsRows(kind: ShopFixture.Kind) async throws {
    let (app, _) = try WebEditingTests.demo(kind)
    let page = await app.get("/Film/-/query")
    #expect(page.status == 200)
    #expect(page.body.contains(#"<select id="q4" name="rating"><option value="">(any)</option>"#))
    let submitted = await app.get("/Film/-/query?" + HTML.query(Self.form))
    #expect(submitted.status == 303)
    let location = try #require(submitted.header("Location"))
    let filter = "title ilike 'a*' and length >= 60 and length <= 100 and rating = 'PG'"
    #expect(location == "/Film?" + HTML.query([("where", filter)]))
    let viaForm = try await SearchTests.keys(app, location + "&format=json&limit=1000")
    let typed = try await SearchTests.keys(
      app, "/Film?format=json&limit=1000&where=" + filter.webQuery)
    #expect(!viaForm.isEmpty && viaForm == typed)
    // Nothing filled in: the whole list.
    #expect(await app.get("/Film/-/query?run=1").header("Location") == "/Film")
  }

  @Test func aValueTheControlDoesNotTakeKeepsTheForm() async throws {
    let (app, _) = try WebEditingTests.demo()
    let page = await app.get("/Film/-/query?run=1&length.from=abc&title=x%27y")
    #expect(page.status == 400)
    #expect(page.body.contains("Length from: expected a number, not abc"))
    #expect(page.body.contains(#"value="abc""#) && page.body.contains(#"value="x&#39;y""#))
    #expect(await app.get("/Film/-/query?run=1&rating=%27XXX%27").status == 400)
    // A number the filter grammar cannot read: the form again, not a list that refuses it.
    for number in ["1e400", "1e", "123456789012345678901234567890123456789012"] {
      let refused = await app.get("/Film/-/query?run=1&length.to=\(number)")
      #expect(refused.status == 400, "\(number)")
      #expect(refused.body.contains("expected a number, not \(number)"), "\(number)")
    }
    #expect(await app.get("/Nosuch/-/query").status == 404)
    // A typed quote is matched as typed: the qualifier quotes it.
    let quoted = await app.get("/Film/-/query?run=1&title=O%27Hara")
    let location = try #require(quoted.header("Location"))
    #expect(location.removingPercentEncoding?.contains(#"'*O\'Hara*'"#) == true, "\(location)")
    #expect(await app.get(location).status == 200)
  }

  @Test func typedTextIsMatchedAsTypedAndADayEndsARange() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE item (id INTEGER PRIMARY KEY, path TEXT NOT NULL, seen DATETIME NOT NULL);
      INSERT INTO item VALUES (1, 'C:\\temp\\a*b', '2006-02-15 05:03:42'),
        (2, 'C:tempab', '2006-02-16 00:00:00'), (3, 'x?y', '2006-02-14 23:59:59');
      """, named: "items")
    let rules = try WebFixtures.ruleFile(
      "entity.name = 'Item' => queryPropertyKeys = ('path', 'seen')")
    let app = try WebApplication.open(path, rules: [rules])
    func found(_ query: String) async throws -> [Int] {
      let answer = await app.get("/Item/-/query?run=1&" + query)
      let location = try #require(answer.header("Location"), "\(answer.body)")
      return try await SearchTests.keys(
        app, location + (location.contains("?") ? "&" : "?") + "format=json")
    }
    #expect(
      try await found("path=" + #"temp\a*"#.webQuery) == [1], "a backslash and a star as typed")
    #expect(try await found("path=" + "x?y".webQuery) == [3])
    #expect(try await found("seen.to=2006-02-15") == [1, 3], "the whole of the last day")
    #expect(try await found("seen.from=2006-02-15&seen.to=2006-02-15") == [1])
  }

  @Test func aToOneTheUserMayNotReachHasNoField() async throws {
    let extra = try WebFixtures.ruleFile(
      """
      entity.name = 'Film' => queryPropertyKeys = ('title', 'language')
      entity.name = 'Language' => isEntityReachable = false
      """)
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules, extra])
    let form = await app.get("/Film/-/query?format=json")
    #expect(form.body.contains("\"title\"") && !form.body.contains("\"language\""))
  }

  @Test func theJSONIsTheREPLsAndTheListLinksToIt() async throws {
    let (app, path) = try WebEditingTests.demo()
    let web = await app.get("/Film/-/query?format=json")
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(path))
    _ = try session.run(.load(WebEditingTests.demoRules))
    let text = try session.run("query Film")
    #expect(text.contains("Rating") && text.contains("is one of: G, PG, PG-13, R, NC-17"))
    _ = try session.run(.set(key: "platform", value: .string("json")))
    #expect(try session.run("query Film") + "\n" == web.body)
    #expect(Page.links(await app.get("/Film").body).contains("/Film/-/query"))
  }
}
