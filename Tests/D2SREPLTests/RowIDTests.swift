import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// SQLite tables without a primary key are addressed by their rowid: inspected, edited and
/// deleted, their updates comparing every column; on PostgreSQL such a table is read-only.
@Suite struct RowIDTests {
  static let sql = """
    CREATE TABLE reading (sensor TEXT NOT NULL, value REAL, note TEXT);
    INSERT INTO reading VALUES ('north', 1.5, 'first'), ('south', 2.5, 'second'), ('north', 1.5, 'third');
    CREATE TABLE keyed (code TEXT, n INTEGER) ;
    CREATE TABLE has_rowid_column (rowid_ TEXT, "RowID" INTEGER);
    CREATE TABLE plain_keyless_strict (a TEXT, b TEXT, PRIMARY KEY (a)) WITHOUT ROWID;
    """

  @Test func sqliteRowsWithoutAKeyAreReachedByRowid() throws {
    let path = try TestDatabases.sqliteFile(Self.sql, named: "rowid")
    let session = try FixtureSession.open(database: path)
    let entity = try #require(try session.database.model.entity(named: "Reading"))
    #expect(entity.primaryKeyAttributeNames == ["rowid"] && !entity.isReadOnly)
    let list = try session.run("list Reading")
    #expect(!list.contains("Rowid"), "the rowid is not a column of the list")
    #expect(try session.run("inspect Reading 2").contains("Note    second"))
    _ = try session.run("edit Reading 2")
    _ = try session.run("object.note = 'changed'")
    #expect(try session.run("save") == "saved Reading 2")
    #expect(try session.run("inspect Reading 2").contains("Note    changed"))
    // Someone else changes another column of the row: the rowid alone is not trusted.
    _ = try session.run("edit Reading 3")
    let other = try FixtureSession.open(database: path)
    _ = try other.run("edit Reading 3")
    _ = try other.run("object.sensor = 'west'")
    #expect(try other.run("save") == "saved Reading 3")
    _ = try session.run("object.note = 'mine'")
    #expect(throws: (any Error).self) { try session.run("save") }
    _ = try session.run("revert")
    #expect(try session.run("inspect Reading 3").contains("Note    third"))
    let names = try session.database.model.entities.map(\.name)
    #expect(try session.database.model.entity(named: "HasRowidColumn")?.isReadOnly == true)
    #expect(
      try session.database.model.entity(named: "PlainKeylessStrict")?.primaryKeyAttributeNames == [
        "a"
      ])
    #expect(names.contains("Keyed"))
  }

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func postgresqlTablesWithoutAKeyAreReadOnly() throws {
    let url = try PostgresSakila.database(
      from:
        "CREATE TABLE reading (sensor text, value real); INSERT INTO reading VALUES ('north', 1.5);",
      prefix: "rowid")
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(url)")
    #expect(try session.run("list Reading").contains("north"))
    #expect {
      try session.run("edit Reading 1")
    } throws: { error in
      "\(error)".contains("no primary key")
    }
  }
}
