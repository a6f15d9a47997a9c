import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A delete that would delete or change rows of an entity the user may not reach is refused
/// however far the cascade goes: through a table the user sees (parent → child, ON DELETE
/// CASCADE) into a hidden one (child → secret, CASCADE; child → note, SET NULL). Before, only
/// the deleted row's own to-manys were looked at: the web and agents deleted hidden rows.
@Suite struct HiddenCascadeTests {
  static func fixture(_ kind: ShopFixture.Kind) -> String {
    let integer = kind == .sqlite ? "INTEGER" : "integer"
    return """
      CREATE TABLE account (id \(integer) PRIMARY KEY, login TEXT NOT NULL, password TEXT);
      INSERT INTO account VALUES (1, 'ann', 'secret');
      CREATE TABLE parent (id \(integer) PRIMARY KEY, name TEXT);
      CREATE TABLE child (id \(integer) PRIMARY KEY,
        parent_id \(integer) REFERENCES parent(id) ON DELETE CASCADE);
      CREATE TABLE secret (id \(integer) PRIMARY KEY,
        child_id \(integer) REFERENCES child(id) ON DELETE CASCADE);
      CREATE TABLE note (id \(integer) PRIMARY KEY,
        child_id \(integer) REFERENCES child(id) ON DELETE SET NULL);
      INSERT INTO parent VALUES (1, 'a secret below'), (2, 'nothing hidden'), (3, 'a note below');
      INSERT INTO child VALUES (10, 1), (20, 2), (30, 3);
      INSERT INTO note VALUES (300, 30);
      """
  }

  static func execute(_ kind: ShopFixture.Kind, _ target: String, _ sql: String) throws {
    let adaptor: any DatabaseAdaptor =
      kind == .sqlite ? try SQLiteAdaptor(path: target) : try PostgreSQLAdaptor(url: target)
    try adaptor.execute(SQLStatement(raw: sql))
  }

  static func target(_ kind: ShopFixture.Kind) throws -> String {
    try kind.database(fixture(kind), named: "cascade")
  }

  static let rules = """
    entity.name = 'Secret' => isEntityReachable = false
    entity.name = 'Note' => isEntityReachable = false
    client = 'mcp' => agentWrites = 'write' ; high

    """

  @Test(arguments: ShopFixture.kinds)
  func theWebRefusesADeleteReachingHiddenRows(kind: ShopFixture.Kind) async throws {
    let target = try Self.target(kind)
    let app = try WebApplication.open(target, rules: [try WebFixtures.ruleFile(Self.rules)])
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    // The confirm page is shown before the hidden row exists; it is sent after.
    let page = await ann.get("/Parent/1/-/delete")
    #expect(page.body.contains(#"<form class="delete""#), "\(page.body)")
    try Self.execute(kind, target, "INSERT INTO secret VALUES (100, 10)")
    #expect(
      await ann.get("/Parent/1/-/delete").body.contains("rows you cannot see"), "on the page too")
    let refused = await ann.post("/Parent/1/-/delete", WebDeletingTests.confirmFields(page.body))
    #expect(refused.status == 403, "\(refused.body)")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM secret") == "1")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM parent") == "3")
    // SET NULL on a hidden row, two levels down.
    let noted = await ann.get("/Parent/3/-/delete")
    #expect(noted.body.contains("rows you cannot see"), "\(noted.body)")
    // Nothing hidden below: deleted, with its child.
    let plain = await ann.get("/Parent/2/-/delete")
    let deleted = await ann.post("/Parent/2/-/delete", WebDeletingTests.confirmFields(plain.body))
    #expect(deleted.status == 303, "\(deleted.body)")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM child") == "2")
  }

  @Test(arguments: ShopFixture.kinds)
  func anAgentIsRefusedTheSame(kind: ShopFixture.Kind) async throws {
    let target = try Self.target(kind)
    try Self.execute(kind, target, "INSERT INTO secret VALUES (100, 10)")
    let app = try WebApplication.open(target, rules: [try WebFixtures.ruleFile(Self.rules)])
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    for key in [1, 3] {
      let answer = try await FormReadTransactionTests.call(
        app, ann, scope: "write", "delete", #"{"entity":"Parent","key":\#(key)}"#)
      #expect(answer.contains("rows you cannot see"), "\(key): \(answer)")
    }
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM parent") == "3")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM note") == "1")
    let answer = try await FormReadTransactionTests.call(
      app, ann, scope: "write", "delete", #"{"entity":"Parent","key":2}"#)
    #expect(answer.contains(#"deleted"#) && !answer.contains("isError\":true"), "\(answer)")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM parent") == "2")
  }

  /// A cycle of cascades (two rows each referring to the other) is followed once, and a
  /// delete reaching no hidden row is made: the check read the same rows until its limit,
  /// then refused the delete.
  @Test func aCycleOfCascadesEnds() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
      INSERT INTO account VALUES (1, 'ann', 'secret');
      CREATE TABLE node (id INTEGER PRIMARY KEY, next INTEGER REFERENCES node(id) ON DELETE CASCADE);
      CREATE TABLE secret (id INTEGER PRIMARY KEY,
        node_id INTEGER REFERENCES node(id) ON DELETE CASCADE);
      INSERT INTO node VALUES (1, NULL), (2, 1);
      UPDATE node SET next = 2 WHERE id = 1;
      """, named: "cascade-cycle")
    let app = try WebApplication.open(path, rules: [try WebFixtures.ruleFile(Self.rules)])
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let page = await ann.get("/Node/1/-/delete")
    #expect(page.status == 200 && page.body.contains(#"<form class="delete""#), "\(page.body)")
  }
}
