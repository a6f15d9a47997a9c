import D2SREPL
import D2STesting
import D2SWeb
import Foundation
import Testing

/// The search box (`q=`, `search ENTITY WORDS`, `list … search '…'`): words that begin words
/// of the searched properties, without regard to case; what is typed is matched literally;
/// passwords are never searched; the same rows in the REPL, the web and JSON.
@Suite struct SearchTests {
  static let fixtureSQLite = """
    CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, password TEXT);
    INSERT INTO note VALUES (1, '100% pure', 'alpha'), (2, '100 pure', 'alpha'),
      (3, 'a_b road', 'beta'), (4, 'axb road', 'beta'), (5, 'star* light', NULL),
      (6, 'Dinosaur Park', NULL), (7, 'the dinosaur', NULL), (8, 'undinosaured', NULL);
    """
  static let fixturePostgreSQL = """
    CREATE TABLE note (id integer PRIMARY KEY, title text NOT NULL, password text);
    INSERT INTO note VALUES (1, '100% pure', 'alpha'), (2, '100 pure', 'alpha'),
      (3, 'a_b road', 'beta'), (4, 'axb road', 'beta'), (5, 'star* light', NULL),
      (6, 'Dinosaur Park', NULL), (7, 'the dinosaur', NULL), (8, 'undinosaured', NULL);
    """

  static func app(_ kind: ShopFixture.Kind, rules: String = "") throws -> WebApplication {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(fixtureSQLite, named: "notes")
      case .postgresql: try PostgresSakila.database(from: fixturePostgreSQL, prefix: "notes")
      }
    let file = try WebFixtures.ruleFile(
      "*true* => searchPropertyKeys = ('title', 'password')\n" + rules)
    return try WebApplication.open(target, rules: [file])
  }

  static func ids(_ app: WebApplication, _ query: String) async throws -> [Int] {
    let page = await app.get("/Note?order=id&format=json&q=" + query.webQuery)
    #expect(page.status == 200, "\(query)")
    let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
    let rows = object?["rows"] as? [[String: Any]] ?? []
    return rows.compactMap { ($0["key"] as? [Any])?.first as? Int }
  }

  @Test(arguments: ShopFixture.kinds)
  func wordsBeginWordsAndWhatIsTypedIsLiteral(kind: ShopFixture.Kind) async throws {
    let app = try Self.app(kind)
    #expect(try await Self.ids(app, "dino") == [6, 7], "a word's beginning, in any case")
    #expect(try await Self.ids(app, "DINO park") == [6], "every word is required")
    #expect(try await Self.ids(app, "100%") == [1], "% is a character")
    #expect(try await Self.ids(app, "a_b") == [3], "_ is a character")
    #expect(try await Self.ids(app, "star*") == [5], "* is a character")
    #expect(try await Self.ids(app, "*").isEmpty, "no word begins with a star: * is no wildcard")
    #expect(try await Self.ids(app, "alpha").isEmpty, "a password is never searched")
  }

  @Test func theREPLFindsTheSameRowsAndItsJSONEqualsTheWebs() async throws {
    let budget = try WebFixtures.unhurriedFacets()
    let path = try SakilaSQLite.copy()
    let app = try WebApplication.open(path, rules: [WebEditingTests.demoRules, budget])
    let web = await app.get("/Film?format=json&q=dino")
    let session = try REPLSession(width: nil, defaultLimit: 50)
    _ = try session.run(.open(path))
    _ = try session.run(.load(WebEditingTests.demoRules))
    _ = try session.run(.load(budget))
    _ = try session.run(.set(key: "platform", value: .string("json")))
    let repl = try session.run("search Film dino")
    let canonical = { (text: String) -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? [:]
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      return String(decoding: data ?? Data(), as: UTF8.self)
    }
    #expect(canonical(web.body) == canonical(repl))
    #expect(repl.contains("ACADEMY DINOSAUR"))
    // With a where clause, in either order of clauses.
    let both = try session.run("list Film search 'dino' where rating = 'PG'")
    #expect(both.contains("ACADEMY DINOSAUR") && !both.contains("\"G\""))
    #expect(throws: (any Error).self) { try session.run("search Film") }
  }

  @Test func theSearchBoxKeepsItsWordsAndTheFilter() async throws {
    let (app, _) = try WebEditingTests.demo()
    let page = await app.get("/Film?q=a&where=" + "length > 60".webQuery + "&limit=5")
    #expect(page.status == 200)
    #expect(page.body.contains(#"<input id="f-q" name="q" type="search" value="a">"#))
    #expect(page.body.contains(#"<input type="hidden" name="where" value="length &gt; 60">"#))
    let next = try #require(Page.links(page.body).first { $0.contains("after=") })
    #expect(next.contains("q=a"))
  }
}

/// A list's headers: only a column the list can be sorted by is a link.
@Suite struct SortableHeaderTests {
  @Test func aHeaderThatCannotSortIsNoLink() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Film")
    #expect(page.body.contains(#"<a href="/Film?order=title">Title</a>"#))
    #expect(page.body.contains(#"<th scope="col">Language</th>"#), "a to-one sorts by none")
    #expect(!page.body.contains("order=language"))
    #expect(await app.get("/Film?order=language").status == 400)
  }
}

/// "Clear" links: the list without its search, or without its filter, the rest kept.
@Suite struct ClearLinkTests {
  @Test func theSearchAndTheFilterEachHaveAClearLink() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Film?q=dino&where=" + "length > 60".webQuery + "&order=title")
    let links = Page.links(page.body)
    #expect(links.contains("/Film?where=length%20%3E%2060&order=title"), "\(links)")
    #expect(links.contains("/Film?q=dino&order=title"), "\(links)")
    let plain = await app.get("/Film")
    #expect(!plain.body.contains("class=\"clear\""))
  }
}

/// A filter that cannot be used: the list again, the typed text in the form and the error
/// beside it, a 400; JSON gets the error alone.
@Suite struct BadFilterTests {
  @Test func aBadFilterKeepsTheTypedTextBesideItsError() async throws {
    let app = try WebFixtures.sakila()
    let typed = "title like 'A*' and lenght > 60"
    let page = await app.get("/Film?order=title&where=" + typed.webQuery)
    #expect(page.status == 400)
    #expect(page.body.contains(#"value="title like &#39;A*&#39; and lenght &gt; 60""#))
    #expect(page.body.contains(#"aria-invalid="true" aria-describedby="e-where""#))
    #expect(page.body.contains("Film has no property &#39;lenght&#39;"))
    #expect(page.body.contains("<table class=\"list\">"), "the list, without the filter")
    #expect(!Page.links(page.body).contains { $0.contains("lenght") }, "no link keeps it")
    let json = await app.get("/Film?format=json&where=" + typed.webQuery)
    #expect(json.status == 400 && json.body.hasPrefix("{\"error\""))
    let syntax = await app.get("/Film?where=" + "title ==".webQuery)
    #expect(syntax.status == 400 && syntax.body.contains(#"value="title ==""#))
  }
}

/// What is typed in the search box comes back escaped, in its field and in every link.
@Suite struct SearchEscapeTests {
  @Test func typedMarkupIsEscapedInTheFieldAndTheLinks() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Film?q=" + "<script>\"x' &".webQuery)
    #expect(page.status == 200)
    #expect(!page.body.contains("<script>\""))
    #expect(page.body.contains(#"value="&lt;script&gt;&quot;x&#39; &amp;""#))
  }
}
