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
