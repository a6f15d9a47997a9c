import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// A key typed in a command names the row whose key is that text: `01` is the text key '01'
/// (it was read as the number 1, so `delete Wr 01` deleted the row '1'), a quoted key may hold
/// a comma, and a number still finds an integer key however it is written.
@Suite struct TypedKeyTests {
  static let schema = """
    CREATE TABLE wr (id TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
    INSERT INTO wr VALUES ('1', 'one'), ('01', 'zero one'), ('1.0', 'one point zero'),
      ('a,b', 'comma');
    CREATE TABLE comp (a INTEGER, b TEXT, v TEXT, PRIMARY KEY (a, b));
    INSERT INTO comp VALUES (1, 'b,c', 'composite with a comma'), (1, 'b', 'composite');
    CREATE TABLE num (id INTEGER PRIMARY KEY, v TEXT);
    INSERT INTO num VALUES (1, 'number one');
    """

  static func session() throws -> (REPLSession, String) {
    let path = try TestDatabases.sqliteFile(schema, named: "keys")
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    return (session, path)
  }

  static func stored(_ path: String) throws -> [String] {
    var ids: [String] = []
    try SQLiteAdaptor(path: path).query(
      SQLStatement(raw: "SELECT id FROM wr ORDER BY id"), columns: [nil]
    ) { ids.append($0[0].stringValue ?? "?") }
    return ids
  }

  @Test func aTextKeyIsTheTextTyped() throws {
    let (session, _) = try Self.session()
    #expect(try session.run("inspect Wr 01").contains("zero one"))
    #expect(try session.run("inspect Wr 1.0").contains("one point zero"))
    #expect(try session.run("inspect Wr 1").contains("one"))
    #expect(try session.run("inspect Num 01").contains("number one"), "an integer key")
  }

  @Test func deleteRemovesTheRowTyped() throws {
    let (session, path) = try Self.session()
    _ = try session.run("delete Wr 01")
    #expect(try Self.stored(path) == ["1", "1.0", "a,b"])
  }

  @Test func aQuotedKeyMayHoldAComma() throws {
    let (session, _) = try Self.session()
    #expect(try session.run("inspect Wr 'a,b'").contains("comma"))
    #expect(try session.run("inspect Comp 1,'b,c'").contains("composite with a comma"))
    let plain = try session.run("inspect Comp 1,b")
    #expect(plain.contains("composite") && !plain.contains("with a comma"), "\(plain)")
  }

  @Test func aKeyOfOneValueSaysValue() throws {
    let (session, _) = try Self.session()
    #expect {
      try session.run("inspect Wr 1,2")
    } throws: { "\($0)".contains("a key of 1 value (id)") }
  }
}
