import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SREPL

/// PostgreSQL types without an exact `=` (`json`, `xml`, `point`; `box`, whose `=` compares
/// areas) are compared as fetched, on the row read under the save's lock, not in SQL. Before,
/// a row of a table holding one could not be deleted, and such a column not edited: the
/// optimistic lock's `WHERE` asked for an operator that does not exist ("operator does not
/// exist: json = unknown").
@Suite(.enabled(if: TestServer.available.contains(.postgresql)))
struct NoEqualityTypeTests {
  static let fixture = """
    CREATE TABLE doc (id serial PRIMARY KEY, name text, meta json, x xml, p point, b box);
    INSERT INTO doc (name, meta, x, p, b) VALUES
      ('one', '{"a": 1,  "a": 2}', '<a>1</a>', '(1,2)', '(2,2),(0,0)'),
      ('two', NULL, NULL, NULL, NULL),
      ('three', '[1]', '<b/>', '(0,0)', '(1,1),(0,0)');
    """

  static func session() throws -> (REPLSession, any DatabaseAdaptor) {
    let target = try PostgresSakila.database(from: fixture, prefix: "noequality")
    let session = try FixtureSession.open(database: target, width: 120)
    return (session, try PostgreSQLAdaptor(url: target))
  }

  static func stored(_ admin: any DatabaseAdaptor, _ sql: String) throws -> String {
    var text = "NULL"
    try admin.query(SQLStatement(raw: sql), columns: [nil]) {
      text = $0[0].isNull ? "NULL" : ($0[0].stringValue ?? $0[0].description)
    }
    return text
  }

  @Test func suchColumnsAreEditedAndTheirRowsDeleted() throws {
    let (session, admin) = try Self.session()
    _ = try session.run("edit Doc 1")
    _ = try session.run(#"object.meta = '{"a": 3}'"#)
    _ = try session.run("object.p = '(5,6)'")
    #expect(try session.run("save").contains("saved"))
    #expect(try Self.stored(admin, "SELECT meta::text FROM doc WHERE id = 1") == #"{"a": 3}"#)
    #expect(try Self.stored(admin, "SELECT p::text FROM doc WHERE id = 1") == "(5,6)")
    #expect(try Self.stored(admin, "SELECT x::text FROM doc WHERE id = 1") == "<a>1</a>")
    _ = try session.run("delete Doc 2")
    _ = try session.run("delete Doc 3")
    #expect(try Self.stored(admin, "SELECT count(*) FROM doc") == "1")
  }

  @Test func aChangeMadeMeanwhileIsAConflict() throws {
    let (session, admin) = try Self.session()
    _ = try session.run("edit Doc 1")
    _ = try session.run("object.name = 'mine'")
    _ = try session.run("object.b = '(9,9),(0,0)'")
    // A box of the same area: SQL's `=` would take it for the same.
    try admin.execute(SQLStatement(raw: "UPDATE doc SET b = '(4,1),(0,0)' WHERE id = 1"))
    #expect(throws: (any Error).self) { try session.run("save") }
    _ = try session.run("revert")
    _ = try session.run("edit Doc 1")
    _ = try session.run(#"object.meta = '{}'"#)
    // The same JSON value, written otherwise: a change all the same.
    try admin.execute(SQLStatement(raw: #"UPDATE doc SET meta = '{"a":1,"a":2}' WHERE id = 1"#))
    #expect(throws: (any Error).self) { try session.run("save") }
    _ = try session.run("revert")
    // A delete of a row whose json changed since it was fetched.
    let object = try #require(try session.database.fetchObject("Doc", primaryKey: [.int(3)]))
    try admin.execute(SQLStatement(raw: "UPDATE doc SET meta = '[2]' WHERE id = 3"))
    #expect {
      try session.database.delete(object)
    } throws: { ($0 as? DatabaseError)?.code == .conflict }
    #expect(try Self.stored(admin, "SELECT count(*) FROM doc") == "3")
    #expect(try Self.stored(admin, "SELECT name FROM doc WHERE id = 1") == "one")
  }
}
