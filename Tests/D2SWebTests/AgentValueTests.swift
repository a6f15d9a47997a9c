import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// An agent's values are read as a person's typed text is: JSON numbers in exponent form
/// (`0.00001` arrives as `1e-05`), a value a formatter cannot read refused with its reason,
/// a new row without its key refused by name (SQLite lets a NULL into a key that is no
/// rowid), and `seen: ""` is not NULL. Before: "the request failed", a row keyed NULL that
/// nothing could reach again, and a save over a value cleared to NULL meanwhile.
@Suite struct AgentValueTests {
  static let fixture = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account VALUES (1, 'ann', 'secret');
    CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT, price NUMERIC(10,2), qty INTEGER,
      f REAL);
    INSERT INTO item VALUES ('A', NULL, 1.5, 1, 1.0);
    """

  static func app() throws -> (WebApplication, WebClient, String) {
    let path = try TestDatabases.sqliteFile(fixture, named: "agentvalues")
    let app = try WebApplication.open(
      path, rules: [try WebFixtures.ruleFile("client = 'mcp' => agentWrites = 'write' ; high\n")])
    return (app, WebClient(app), path)
  }

  static func stored(_ path: String, _ sql: String) throws -> [String] {
    var rows: [String] = []
    try SQLiteAdaptor(path: path).query(SQLStatement(raw: sql), columns: [nil]) {
      rows.append($0[0].isNull ? "NULL" : $0[0].description)
    }
    return rows
  }

  @Test func valuesAreReadAsTypedTextIs() async throws {
    let (app, ann, path) = try Self.app()
    #expect(await ann.login("ann", "secret").status == 303)
    func call(_ tool: String, _ arguments: String) async throws -> String {
      try await FormReadTransactionTests.call(app, ann, scope: "write", tool, arguments)
    }
    let exponent = try await call(
      "edit", #"{"entity":"Item","key":"A","values":{"f":0.00001,"price":1e5}}"#)
    #expect(!exponent.contains(#""isError":true"#), "\(exponent)")
    #expect(try Self.stored(path, "SELECT f FROM item") == ["1e-05"])
    #expect(try Self.stored(path, "SELECT price FROM item") == ["100000"])
    let bad = try await call("edit", #"{"entity":"Item","key":"A","values":{"price":"abc"}}"#)
    #expect(bad.contains("is not a valid") && bad.contains("abc"), "\(bad)")
    let keyless = try await call("new", #"{"entity":"Item","values":{"label":"nokey"}}"#)
    #expect(keyless.contains("needs a value"), "\(keyless)")
    let nullKey = try await call("new", #"{"entity":"Item","values":{"code":null}}"#)
    #expect(nullKey.contains("needs a value"), "\(nullKey)")
    #expect(try Self.stored(path, "SELECT count(*) FROM item") == ["1"])
    // The label is NULL: an agent that saw "" saw another value.
    let seen = try await call(
      "edit", #"{"entity":"Item","key":"A","values":{"qty":42},"seen":{"label":""}}"#)
    #expect(seen.contains("conflict"), "\(seen)")
    #expect(try Self.stored(path, "SELECT qty FROM item") == ["1"])
  }
}
