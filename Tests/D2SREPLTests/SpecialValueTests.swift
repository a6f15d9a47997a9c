import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SREPL

/// PostgreSQL's special values can be typed back as the pages show them: `infinity`,
/// `-infinity` and a BC date for a date or timestamp, `NaN` and `±Infinity` for a `numeric`,
/// in a filter and in a change. Before, each was refused ("cannot use a string 'infinity' for
/// at: expected Date"), though the list showed them and its facets counted them.
@Suite struct SpecialValueTests {
  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func specialValuesAreTypedAsShown() throws {
    let target = try PostgresSakila.database(
      from: """
        CREATE TABLE ev (id serial PRIMARY KEY, at timestamp, d date, amt numeric);
        INSERT INTO ev (at, d, amt) VALUES ('infinity', '0010-01-01 BC', 'NaN'),
          ('2024-01-01 10:00:00', '2024-01-01', 1), ('-infinity', '2024-01-01', 'Infinity');
        """, prefix: "special")
    let session = try FixtureSession.open(database: target, width: 120)
    for (filter, count) in [
      ("at = 'infinity'", 1), ("at = '-infinity'", 1), ("d = '0010-01-01 BC'", 1),
      ("amt = 'NaN'", 1), ("amt = 'Infinity'", 1), ("at != 'infinity'", 2),
    ] {
      let list = try session.run("list Ev where \(filter)")
      #expect(list.contains("\(count) Ev"), "\(filter): \(list)")
    }
    _ = try session.run("edit Ev 2")
    _ = try session.run("object.at = '-infinity'")
    _ = try session.run("object.d = '0044-03-15 BC'")
    _ = try session.run("object.amt = '-Infinity'")
    #expect(try session.run("save").contains("saved"))
    let admin = try PostgreSQLAdaptor(url: target)
    var stored = ""
    try admin.query(
      SQLStatement(
        raw: "SELECT at::text || '|' || d::text || '|' || amt::text FROM ev WHERE id = 2"),
      columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "-infinity|0044-03-15 BC|-Infinity")
  }

  /// On SQLite, which has no such values, they are refused by their field, not stored as text.
  @Test func sqliteRefusesThem() throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE ev (id INTEGER PRIMARY KEY, d DATE, amt DECIMAL(10,2));
      INSERT INTO ev VALUES (1, '2024-01-01', 1);
      """, named: "special")
    let session = try FixtureSession.open(database: path, width: 120)
    _ = try session.run("edit Ev 1")
    #expect { try session.run("object.d = 'infinity'") } throws: {
      "\($0)".contains("PostgreSQL's")
    }
    #expect { try session.run("object.amt = 'NaN'") } throws: { "\($0)".contains("PostgreSQL's") }
    _ = try session.run("revert")
  }

  /// A `timestamptz` typed with a zone's name, as PostgreSQL reads it.
  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func aZoneByItsName() throws {
    let target = try PostgresSakila.database(
      from:
        "CREATE TABLE ev (id serial PRIMARY KEY, at timestamptz); INSERT INTO ev (at) VALUES (now());",
      prefix: "zonename")
    let session = try FixtureSession.open(database: target, width: 120)
    _ = try session.run("edit Ev 1")
    _ = try session.run("object.at = '2024-01-01 10:00 Europe/Paris'")
    #expect(try session.run("save").contains("saved"))
    var stored = ""
    try PostgreSQLAdaptor(url: target).query(
      SQLStatement(raw: "SELECT at::text FROM ev"), columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "2024-01-01 09:00:00+00", "\(stored)")
    #expect(try session.run("list Ev where at = '2024-01-01 10:00 Europe/Paris'").contains("1 Ev "))
  }
}
