import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Values from peers' test suites (issue 40), on fixtures of our own: PostgreSQL arrays with
/// explicit lower bounds or more dimensions, `char(n)` with its padding, leading blanks, SQLite
/// booleans holding other values, a NUL inside text, columns reached by their own name. What
/// the terminal and the JSON show is asserted literally, and the stored bytes after an edit of
/// another column are read back with the database's own functions.
@Suite struct PeerValuesTests {
  static let postgresql = """
    CREATE TABLE oddity (
      id serial PRIMARY KEY, code char(4), bounded int[], matrix int[], nested text[],
      doc xml, note text);
    INSERT INTO oddity (code, bounded, matrix, nested, doc, note) VALUES
      ('ab', '[0:1]={1.1,2.2}'::numeric[]::int[], '{{1,2,3,4},{2,3,4,5}}', '{{",",x},{3,y}}',
       ' <!-- hi--><a/>', ' leading');
    """

  static let sqlite = """
    CREATE TABLE flag (id INTEGER PRIMARY KEY, ok BOOLEAN, label TEXT);
    INSERT INTO flag VALUES (1, 2, 'two'), (2, 'yes', 'y'), (3, 1, 'one'), (4, 0, 'zero');
    INSERT INTO flag VALUES (5, 1, 'JEN' || char(0) || 'NIFER'), (6, 1, ' leading');
    INSERT INTO flag VALUES (7, 1, CAST(X'80' AS TEXT)), (8, 1, CAST(X'61c0' AS TEXT)),
      (9, 1, CAST(X'808080f0808080ff' AS TEXT)), (10, 1, 'a' || char(65533));
    """

  /// The line of `text` that starts with `label`.
  static func line(_ label: String, in text: String) -> String? {
    text.split(separator: "\n").first { $0.hasPrefix(label) }.map(String.init)
  }

  /// The first row's value of `sql`, as the database's own text.
  static func stored(_ session: REPLSession, _ sql: String) throws -> String {
    var text = ""
    try session.database.adaptor.query(SQLStatement(raw: sql), columns: [nil]) {
      text = $0[0].stringValue ?? $0[0].description
    }
    return text
  }

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func postgreSQLArraysPaddingAndBlanksShowAsStored() throws {
    let target = try PostgresSakila.database(from: Self.postgresql, prefix: "peer_values")
    let session = try FixtureSession.open(database: target, width: 120)
    let inspect = try session.run("inspect Oddity 1")
    #expect(Self.line("Bounded", in: inspect) == "Bounded  [0:1]={1,2}", "\(inspect)")
    #expect(Self.line("Matrix", in: inspect) == "Matrix   {{1,2,3,4},{2,3,4,5}}")
    #expect(Self.line("Nested", in: inspect) == #"Nested   {{",",x},{3,y}}"#)
    #expect(Self.line("Doc", in: inspect) == "Doc       <!-- hi--><a/>", "a leading blank kept")
    #expect(Self.line("Note", in: inspect) == "Note      leading")
    #expect(Self.line("Code", in: inspect)?.hasPrefix("Code     ab  ") == true, "padding kept")
    _ = try session.run("platform = 'json'")
    let json = try session.run("inspect Oddity 1")
    #expect(json.contains(#""value":"ab  ""#), "\(json)")
    #expect(json.contains(#""value":["1","2"],"text":"[0:1]={1,2}","lowerBounds":[0]"#))
    #expect(
      json.contains(
        #""value":[["1","2","3","4"],["2","3","4","5"]],"text":"{{1,2,3,4},{2,3,4,5}}"}"#))
    #expect(json.contains(#""value":[[",","x"],["3","y"]],"text":"{{\",\",x},{3,y}}"}"#))
    #expect(json.contains(#""value":" leading""#))
    _ = try session.run("platform = 'markdown'")
    let markdown = try session.run("inspect Oddity 1")
    #expect(markdown.contains("| Bounded | [0:1]={1,2} |"), "\(markdown)")
    #expect(markdown.contains("| Code | ab   |"), "padding kept")
    #expect(markdown.contains("| Note |  leading |"), "a leading blank kept")
    _ = try session.run("platform = 'terminal'")
    // An edit of another column leaves every one of them byte for byte.
    _ = try session.run("edit Oddity 1")
    _ = try session.run("object.note = 'changed'")
    #expect(try session.run("save") == "saved Oddity 1")
    // (`char(n)`'s padding read as bytes: a cast to text would drop it.)
    let stored = try Self.stored(
      session,
      "SELECT bounded::text || '|' || array_lower(bounded, 1) || '|' || matrix::text || '|' || nested::text || '|' || encode(bpcharsend(code), 'hex') || '|' || doc::text FROM oddity"
    )
    #expect(
      stored == #"[0:1]={1,2}|0|{{1,2,3,4},{2,3,4,5}}|{{",",x},{3,y}}|61622020| <!-- hi--><a/>"#,
      "\(stored)")
    // An edit of such an array itself writes it back exactly, as typed in PostgreSQL's text.
    _ = try session.run("edit Oddity 1")
    _ = try session.run("object.matrix = '{{9,8},{7,6}}'")
    _ = try session.run("object.bounded = '[2:3]={5,6}'")
    #expect(try session.run("save") == "saved Oddity 1")
    #expect(
      try Self.stored(
        session,
        "SELECT matrix::text || '|' || bounded::text || '|' || array_lower(bounded, 1) FROM oddity")
        == "{{9,8},{7,6}}|[2:3]={5,6}|2")
    _ = try session.run("edit Oddity 1")
    #expect(throws: (any Error).self) { try session.run("object.matrix = '{{1,2},{3'") }
  }

  @Test func sqliteBooleansHoldingOtherValuesAndNULsShowAsStored() throws {
    let target = try TestDatabases.sqliteFile(Self.sqlite, named: "peer_values")
    let session = try FixtureSession.open(database: target, width: 120)
    #expect(Self.line("Ok", in: try session.run("inspect Flag 1")) == "Ok     2")
    #expect(Self.line("Ok", in: try session.run("inspect Flag 2")) == "Ok     yes")
    #expect(Self.line("Ok", in: try session.run("inspect Flag 3")) == "Ok     ✓")
    #expect(Self.line("Ok", in: try session.run("inspect Flag 4")) == "Ok     ✗")
    #expect(Self.line("Label", in: try session.run("inspect Flag 5")) == #"Label  JEN\x00NIFER"#)
    #expect(Self.line("Label", in: try session.run("inspect Flag 6")) == "Label   leading")
    // Bytes that are not UTF-8: each as `\xNN`, distinct from U+FFFD itself.
    #expect(Self.line("Label", in: try session.run("inspect Flag 7")) == #"Label  \x80"#)
    #expect(Self.line("Label", in: try session.run("inspect Flag 8")) == #"Label  a\xc0"#)
    #expect(
      Self.line("Label", in: try session.run("inspect Flag 9"))
        == #"Label  \x80\x80\x80\xf0\x80\x80\x80\xff"#)
    #expect(Self.line("Label", in: try session.run("inspect Flag 10")) == "Label  a\u{FFFD}")
    _ = try session.run("platform = 'markdown'")
    let markdown = try session.run("inspect Flag 8") + (try session.run("inspect Flag 5"))
    #expect(markdown.contains(#"| Label | a\xc0 |"#), "\(markdown)")
    #expect(markdown.contains(#"| Label | JEN\x00NIFER |"#))
    _ = try session.run("platform = 'json'")
    let bytes = try session.run("inspect Flag 8")
    #expect(bytes.contains(#""value":"YcA=","text":"a\\xc0""#), "\(bytes)")
    let two = try session.run("inspect Flag 1")
    #expect(two.contains(#""value":2,"text":"2""#), "\(two)")
    #expect(try session.run("inspect Flag 2").contains(#""value":"yes","text":"yes""#))
    #expect(try session.run("inspect Flag 5").contains(#""JEN\u0000NIFER""#))
    _ = try session.run("platform = 'terminal'")
    _ = try session.run("edit Flag 1")
    _ = try session.run("object.label = 'deux'")
    #expect(try session.run("save") == "saved Flag 1")
    #expect(
      try Self.stored(session, "SELECT quote(ok) || typeof(ok) FROM flag WHERE id = 1")
        == "2integer")
    // Another column's edit leaves the bytes; an edit of the value itself replaces it whole.
    _ = try session.run("edit Flag 8")
    _ = try session.run("object.ok = false")
    #expect(try session.run("save") == "saved Flag 8")
    #expect(
      try Self.stored(session, "SELECT hex(label) || typeof(label) FROM flag WHERE id = 8")
        == "61C0text")
    _ = try session.run("edit Flag 8")
    _ = try session.run("object.label = 'fixed'")
    #expect(try session.run("save") == "saved Flag 8")
    #expect(try Self.stored(session, "SELECT label FROM flag WHERE id = 8") == "fixed")
  }

  /// The table of Datasette's test fixtures the issue names, with its FTS3 index.
  static let searchable = """
    CREATE TABLE searchable (
      pk integer primary key, text1 text, text2 text, [name with . and spaces] text);
    INSERT INTO searchable VALUES (1, 'barry cat', 'terry dog', 'panther');
    INSERT INTO searchable VALUES (2, 'terry dog', 'sara weasel', 'puma');
    CREATE VIRTUAL TABLE "searchable_fts"
      USING FTS3 (text1, text2, [name with . and spaces], content="searchable");
    INSERT INTO "searchable_fts" (rowid, text1, text2, [name with . and spaces])
      SELECT rowid, text1, text2, [name with . and spaces] FROM searchable;
    """

  @Test func datasettesSearchableIsReachedByItsColumnsOwnName() throws {
    let target = try TestDatabases.sqliteFile(Self.searchable, named: "searchable")
    let session = try FixtureSession.open(database: target, width: 160)
    let found = try session.run("list Searchable where `name with . and spaces` = 'puma'")
    #expect(found.contains("1 Searchable"), "\(found)")
    #expect(found.contains("terry dog") && !found.contains("barry cat"))
    _ = try session.run("edit Searchable 1")
    _ = try session.run("object.`name with . and spaces` = 'x'")
    #expect(try session.run("save") == "saved Searchable 1")
    #expect(
      try Self.stored(session, "SELECT [name with . and spaces] FROM searchable WHERE pk = 1")
        == "x")
  }

  @Test(arguments: TestServer.available)
  func backticksNameAColumnByItsOwnName(server: TestServer) throws {
    let session = try FixtureSession.open("awkward-names", on: server, width: 160)
    let found = try session.run("list OddNames where `name with . and spaces` = 'puma'")
    #expect(found.contains("puma") && !found.contains("lynx"), "\(found)")
    _ = try session.run("edit OddNames 2")
    _ = try session.run("object.`name with . and spaces` = 'ocelot'")
    #expect(try session.run("save") == "saved OddNames 2")
    #expect(
      try session.run("list OddNames where `name with . and spaces` = 'ocelot'").contains("ocelot"))
    // Completion offers the column's own name, backticked, where only backticks reach it.
    let completed = Completion.candidates(for: "na", after: "list OddNames where ", in: session)
    #expect(completed.contains("nameWithAndSpaces"), "\(completed)")
    #expect(completed.contains("`name with . and spaces`"), "\(completed)")
    _ = try session.run("edit OddNames 1")
    let object = Completion.candidates(for: "object.", after: "", in: session)
    #expect(object.contains("object.`name with . and spaces`"), "\(object)")
    #expect(object.contains("object.`prix €`"), "\(object)")
    // Rule text reaches the column by its own name too.
    _ = try session.run("revert")
    _ = try session.run(
      "rule task = 'inspect' AND object.`name with . and spaces` = 'puma' => title = 'Big cat'")
    #expect(try session.run("inspect OddNames 1").contains("Big cat"))
  }
}
