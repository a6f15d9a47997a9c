import D2STesting
import D2SWeb
import Foundation
import Testing

/// The search box through a full-text index: an SQLite FTS5 table over the entity's table
/// (found by `content=`, or named `TABLE_fts` as Datasette finds them) or a PostgreSQL
/// `tsvector` column with a GIN index; used (the trace shows `MATCH`, `@@`) and ranked, never
/// matching a password.
@Suite struct FullTextSearchTests {
  static let rows = """
    INSERT INTO doc VALUES (1, 'Dinosaur park', 'a park with dinosaurs and many other animals to see all day long', 'x'),
      (2, 'The dino', 'dino dino dino', 'y'), (3, 'Parks', 'no match here', 'z'),
      (4, 'Secret', 'nothing', 'dinosecret'), (5, 'Pure', 'the Dinosaur', 'w');
    """
  static let sqlite =
    """
    CREATE TABLE doc (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, password TEXT);
    """ + rows
      + """
      CREATE VIRTUAL TABLE doc_fts USING fts5(title, body, password, content='doc');
      INSERT INTO doc_fts (rowid, title, body, password) SELECT id, title, body, password FROM doc;
      CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
      INSERT INTO note VALUES (1, 'alpha beta'), (2, 'gamma'), (3, 'alphabet soup');
      CREATE VIRTUAL TABLE note_fts USING fts5(title);
      INSERT INTO note_fts (rowid, title) SELECT id, title FROM note;
      """
  static let postgreSQL =
    """
    CREATE TABLE doc (id integer PRIMARY KEY, title text NOT NULL, body text, password text,
      words tsvector);
    """ + rows
      + """
      UPDATE doc SET words = to_tsvector('english', title || ' ' || coalesce(body, '') || ' ' || password);
      CREATE INDEX doc_words ON doc USING gin (words);
      """
  static let rules = "entity.name = 'Doc' => searchPropertyKeys = ('title', 'body', 'password')"

  static func app(_ kind: ShopFixture.Kind) throws -> (WebApplication, String, String) {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(sqlite, named: "docs")
      case .postgresql: try PostgresSakila.database(from: postgreSQL, prefix: "docs")
      }
    let rules = try WebFixtures.ruleFile(Self.rules)
    return (try WebApplication.open(target, rules: [rules]), target, rules)
  }

  @Test(arguments: ShopFixture.kinds)
  func theIndexFindsWordBeginningsRankedAndNeverAPassword(kind: ShopFixture.Kind) async throws {
    let (app, _, _) = try Self.app(kind)
    let ids = try await SearchTests.keys(app, "/Doc?format=json&q=dino")
    #expect(Set(ids) == [1, 2, 5], "dino begins dinosaur and dino in the title or the body")
    #expect(ids.first == 2, "the best match first: \(ids)")
    #expect(try await SearchTests.keys(app, "/Doc?format=json&q=dinosecret").isEmpty)
    // A word the text search configuration drops still finds what begins with it.
    #expect(Set(try await SearchTests.keys(app, "/Doc?format=json&q=the")) == [2, 5])
    #expect(try await SearchTests.keys(app, "/Doc?format=json&q=dino+park") == [1])
    // An order of the user's own wins over the rank; the next window is found by offset.
    let ordered = try await SearchTests.keys(app, "/Doc?format=json&q=dino&order=id")
    #expect(ordered == [1, 2, 5])
    let page = await app.get("/Doc?q=dino&limit=1")
    let next = try #require(Page.link(rel: "next", in: page.body))
    #expect(next.contains("offset=1") && !next.contains("after="))
    let second = await app.get(next)
    #expect(second.status == 200)
  }

  @Test func aSearchIsCountedNotEstimatedAndItsPositionsAreItsOwn() async throws {
    let path = try TestDatabases.sqliteFile(Self.sqlite, named: "docs")
    // Every table counts as large: an unfiltered list shows the database's estimate.
    let rules = try WebFixtures.ruleFile(Self.rules + "\n*true* => exactCountRowLimit = 1")
    let app = try WebApplication.open(path, rules: [rules])
    let page = await app.get("/Doc?format=json&q=dino")
    let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
    let total = object?["total"] as? [String: Any]
    #expect(total?["value"] as? Int == 3 && total?["kind"] as? String == "exact", "\(page.body)")
    // A position read in one search is no position of another.
    let first = await app.get("/Doc?q=dino&order=title&limit=1")
    let next = try #require(Page.link(rel: "next", in: first.body))
    #expect(await app.get(next).status == 200)
    #expect(await app.get(next.replacingOccurrences(of: "q=dino", with: "q=park")).status == 400)
  }

  @Test func theRankIsFTS5sBM25AndADatasetteNamedTableIsFound() async throws {
    let (app, path, _) = try Self.app(.sqlite)
    let ids = try await SearchTests.keys(app, "/Doc?format=json&q=dino")
    let (status, shell) = try CSVTests.output(
      "/usr/bin/sqlite3",
      [
        path,
        #"SELECT rowid FROM doc_fts WHERE doc_fts MATCH '{title body} : ("dino"*)' ORDER BY bm25(doc_fts), rowid"#,
      ])
    #expect(status == 0)
    #expect(ids == shell.split(separator: "\n").compactMap { Int($0) })
    #expect(try await SearchTests.keys(app, "/Note?format=json&q=alpha") == [1, 3])
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: CSVTests.replBinary.path), "build d2s-repl first"),
    arguments: ShopFixture.kinds)
  func theREPLsTraceShowsTheIndexAndItsRowsAreTheWebs(kind: ShopFixture.Kind) async throws {
    let (app, target, rules) = try Self.app(kind)
    let web = try await SearchTests.keys(app, "/Doc?format=json&q=dino")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-fts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out")
    let errors = folder.appendingPathComponent("err")
    let status = try Spawn.run(
      CSVTests.replBinary.path,
      [target, "--rules", rules, "--format", "json", "--trace", "-c", "search Doc dino"],
      outputPath: output.path, errorPath: errors.path)
    #expect(status == 0)
    let trace = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
    #expect(trace.contains(kind == .sqlite ? "MATCH" : "@@"), "\(trace)")
    let page =
      try JSONSerialization.jsonObject(with: try Data(contentsOf: output)) as? [String: Any]
    let rows = page?["rows"] as? [[String: Any]] ?? []
    #expect(rows.compactMap { ($0["key"] as? [Any])?.first as? Int } == web)
  }
}

extension SearchTests {
  /// The primary keys of the rows of the JSON list at `target`.
  static func keys(_ app: WebApplication, _ target: String) async throws -> [Int] {
    let page = await app.get(target)
    #expect(page.status == 200, "\(target): \(page.body)")
    let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
    let rows = object?["rows"] as? [[String: Any]] ?? []
    return rows.compactMap { ($0["key"] as? [Any])?.first as? Int }
  }
}

/// Sakila's `film.fulltext` on PostgreSQL (a `tsvector` with a GiST index): the search uses
/// it and finds the films SQLite's Sakila finds by their titles.
@Suite struct SakilaFullTextTests {
  @Test(.enabled(if: ShopFixture.kinds.contains(.postgresql), "no PostgreSQL"))
  func dinoFindsTheSameFilmsOnBothDatabases() async throws {
    let (sqlite, _) = try WebEditingTests.demo(.sqlite)
    let (postgres, _) = try WebEditingTests.demo(.postgresql)
    let onSQLite = try await SearchTests.keys(sqlite, "/Film?format=json&q=dino")
    let onPostgres = try await SearchTests.keys(postgres, "/Film?format=json&q=dino")
    #expect(!onSQLite.isEmpty)
    #expect(Set(onSQLite) == Set(onPostgres))
  }
}
