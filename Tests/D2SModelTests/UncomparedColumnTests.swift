import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

/// Columns that SQL cannot compare exactly in an UPDATE's WHERE (floating point, arrays) are
/// compared inside the save's transaction instead, on the row read under its lock: a change
/// made meanwhile is a conflict, and an unchanged value (a `real` read as a Double) is not.
@Suite struct UncomparedColumnTests {
  static let sqlite = """
    CREATE TABLE gauge (id INTEGER PRIMARY KEY, reading REAL, note TEXT);
    INSERT INTO gauge VALUES (1, 1.1, 'a');
    """
  static let postgresql = """
    CREATE TABLE gauge (id integer PRIMARY KEY, reading real, precise double precision,
      tags text[], note text);
    INSERT INTO gauge VALUES (1, 1.1, 0.1, '{a,NULL}', 'a');
    """

  static func open(_ kind: TestDatabase) throws -> (Database, any DatabaseAdaptor) {
    switch kind {
    case .sqlite:
      let path = try TestDatabases.sqliteFile(sqlite, named: "gauge")
      return (try Database(adaptor: SQLiteAdaptor(path: path)), try SQLiteAdaptor(path: path))
    case .postgresql:
      let url = try PostgresSakila.database(from: postgresql, prefix: "gauge")
      return (
        try Database(adaptor: PostgreSQLAdaptor(url: url)), try PostgreSQLAdaptor(url: url)
      )
    }
  }

  @Test(arguments: TestDatabase.available)
  func aFloatChangedMeanwhileIsAConflictAndAnUnchangedOneIsNot(kind: TestDatabase) throws {
    let (database, other) = try Self.open(kind)
    let gauge = try #require(try database.fetchObject("Gauge", primaryKey: [.int(1)]))
    try other.execute(SQLStatement(raw: "UPDATE gauge SET reading = 2.5 WHERE id = 1"))
    try gauge.setValue(.double(3.5), forAttribute: "reading")
    #expect(throws: DatabaseError.self) { try database.save(gauge) }
    var stored = ""
    try other.query(
      SQLStatement(raw: "SELECT CAST(reading AS TEXT) FROM gauge WHERE id = 1"), columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "2.5", "the other change stays")
    // Fetched anew, an unchanged float (a real read as a Double) is no conflict.
    let fresh = try #require(try database.fetchObject("Gauge", primaryKey: [.int(1)]))
    try fresh.setValue(.double(4.5), forAttribute: "reading")
    try fresh.setValue(.string("b"), forAttribute: "note")
    try database.save(fresh)
    try other.query(
      SQLStatement(raw: "SELECT CAST(reading AS TEXT) FROM gauge WHERE id = 1"), columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "4.5")
  }

  @Test(.enabled(if: TestDatabase.postgresURL != nil))
  func anArrayChangedMeanwhileIsAConflict() throws {
    let (database, other) = try Self.open(.postgresql)
    let gauge = try #require(try database.fetchObject("Gauge", primaryKey: [.int(1)]))
    try other.execute(SQLStatement(raw: "UPDATE gauge SET tags = '{z}' WHERE id = 1"))
    try gauge.setValue(.array(["x"]), forAttribute: "tags")
    #expect(throws: DatabaseError.self) { try database.save(gauge) }
    let fresh = try #require(try database.fetchObject("Gauge", primaryKey: [.int(1)]))
    try fresh.setValue(.array(["y", nil]), forAttribute: "tags")
    try fresh.setValue(.double(0.3), forAttribute: "precise")
    try database.save(fresh)
    var stored = ""
    try other.query(
      SQLStatement(raw: "SELECT tags::text || ' ' || precise::text FROM gauge WHERE id = 1"),
      columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "{y,NULL} 0.3")
  }
}
