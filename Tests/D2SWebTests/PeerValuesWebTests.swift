import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// What the browser and the web's JSON show of values from peers' test suites (issue 40):
/// text that is not UTF-8 escaped (with its bytes in the JSON's `value`), a SQLite boolean
/// holding another value as stored, a leading blank kept.
@Suite struct PeerValuesWebTests {
  static let sql = """
    CREATE TABLE flag (id INTEGER PRIMARY KEY, ok BOOLEAN, label TEXT);
    INSERT INTO flag VALUES (1, 2, ' leading'), (2, 1, CAST(X'61c0' AS TEXT)),
      (3, 1, 'a' || char(65533));
    """

  @Test func bytesBooleansAndBlanksShowAsStored() async throws {
    let app = try WebApplication.open(try TestDatabases.sqliteFile(Self.sql, named: "peer_web"))
    let bytes = await app.get("/Flag/2")
    #expect(bytes.body.contains(#"a\xc0"#), "escaped, not U+FFFD")
    #expect(!bytes.body.contains("a\u{FFFD}"))
    #expect((await app.get("/Flag/3")).body.contains("a\u{FFFD}"), "U+FFFD itself stays itself")
    let json = await app.get("/Flag/2", accept: "application/json")
    #expect(json.body.contains(#""value":"YcA=","text":"a\\xc0""#), "\(json.body)")
    let one = await app.get("/Flag/1", accept: "application/json")
    #expect(one.body.contains(#""value":2,"text":"2""#), "\(one.body)")
    #expect(one.body.contains(#""value":" leading""#))
  }
}

/// A form over text that is not UTF-8 (issue 40): the value is replaced whole or refused, and
/// another field's save leaves its bytes.
@Suite struct NonUTF8FormTests {
  static let sql = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account VALUES (1, 'ann', 'secret');
    CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT, body TEXT);
    INSERT INTO note VALUES (1, 'first', CAST(X'61c0' AS TEXT));
    """

  @Test func aValueOfStrayBytesIsReplacedWholeOrRefused() async throws {
    let path = try TestDatabases.sqliteFile(Self.sql, named: "non_utf8")
    let rules = try WebFixtures.ruleFile("user != nil => isEntityReadOnly = false\n")
    let app = try WebApplication.open(path, rules: [rules])
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let form = await ann.get("/Note/1/-/edit")
    #expect(form.status == 200)
    #expect(form.body.contains(#"a\xc0"#))
    let other = await ann.post(
      "/Note/1/-/edit", WebEditingTests.change(form.body, "title", to: "second"))
    #expect(other.status == 303)
    #expect(
      try WebEditingTests.stored(path, "SELECT hex(body), typeof(body) FROM note") == "61C0|text")
    let again = await ann.get("/Note/1/-/edit")
    let edited = await ann.post(
      "/Note/1/-/edit", WebEditingTests.change(again.body, "body", to: #"a\xc0b"#))
    #expect(edited.status == 400)
    #expect(edited.body.contains("not UTF-8"))
    #expect(
      try WebEditingTests.stored(path, "SELECT hex(body), typeof(body) FROM note") == "61C0|text")
    let replaced = await ann.post(
      "/Note/1/-/edit", WebEditingTests.change(again.body, "body", to: "clean"))
    #expect(replaced.status == 303)
    #expect(try WebEditingTests.stored(path, "SELECT body, typeof(body) FROM note") == "clean|text")
  }
}

/// PostgreSQL's arrays of any shape and `char(n)`'s padding in the browser (issue 40).
@Suite struct PostgreSQLPeerValuesWebTests {
  @Test(.enabled(if: ShopFixture.hasPostgreSQL))
  func arraysAndPaddingShowAsPsqlShowsThem() async throws {
    let target = try PostgresSakila.database(
      from: """
        CREATE TABLE oddity (id serial PRIMARY KEY, code char(4), bounded int[], matrix int[]);
        INSERT INTO oddity (code, bounded, matrix)
          VALUES ('ab', '[0:1]={1,2}', '{{1,2,3,4},{2,3,4,5}}');
        CREATE TABLE account (id serial PRIMARY KEY, login text NOT NULL, password text);
        INSERT INTO account (login, password) VALUES ('ann', 'secret');
        """, prefix: "peer_web")
    let app = try WebApplication.open(target)
    let page = await app.get("/Oddity/1")
    #expect(page.body.contains(">[0:1]={1,2}<"), "\(page.body)")
    #expect(page.body.contains(">{{1,2,3,4},{2,3,4,5}}<"))
    #expect(page.body.contains(">ab  <"), "padding kept")
    let json = await app.get("/Oddity/1", accept: "application/json")
    #expect(json.body.contains(#""value":["1","2"],"text":"[0:1]={1,2}","lowerBounds":[0]"#))
    #expect(json.body.contains(#""value":"ab  ""#))
    // Edited in the browser: another field leaves them; the array itself is written as typed.
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let form = await ann.get("/Oddity/1/-/edit")
    #expect(form.status == 200)
    let code = await ann.post(
      "/Oddity/1/-/edit", WebEditingTests.change(form.body, "code", to: "cd"))
    #expect(code.status == 303, "\(code.body)")
    func stored() throws -> String {
      try ShopFixture.stored(
        .postgresql, target,
        "SELECT bounded::text || ' ' || matrix::text, encode(bpcharsend(code), 'hex') FROM oddity")
    }
    #expect(try stored() == "[0:1]={1,2} {{1,2,3,4},{2,3,4,5}}|63642020")
    let again = await ann.get("/Oddity/1/-/edit")
    let matrix = await ann.post(
      "/Oddity/1/-/edit",
      WebEditingTests.change(again.body, "matrix", to: "[0:1][1:2]={{9,8},{7,6}}"))
    #expect(matrix.status == 303, "\(matrix.body)")
    #expect(try stored() == "[0:1]={1,2} [0:1][1:2]={{9,8},{7,6}}|63642020")
  }
}
