import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// A NUL inside a text value is never cut short silently: SQLite stores and reads it back
/// whole; PostgreSQL's text cannot hold it, so the save is refused naming the field, and the
/// stored value stays as it was (issue 38).
@Suite struct NULTextTests {
  static let sql = """
    CREATE TABLE person (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL);
    INSERT INTO person VALUES (4, 'JENNIFER');
    """

  @Test(arguments: TestServer.available)
  func aScriptLineWithANULSavesItWholeOrIsRefused(server: TestServer) throws {
    let target =
      switch server {
      case .sqlite: try TestDatabases.sqliteFile(Self.sql, named: "nul_text")
      case .postgresql: try PostgresSakila.database(from: Self.sql, prefix: "nul_text")
      }
    let session = try FixtureSession.open(database: target)
    let database = try session.database
    _ = try session.run("edit Person 4")
    switch server {
    case .sqlite:
      _ = try session.run("object.firstName = 'JEN\u{0}NIFER'")
      #expect(try session.run("save") == "saved Person 4")
      var stored = ""
      try database.adaptor.query(
        SQLStatement(
          raw: "SELECT hex(first_name) || '|' || length(CAST(first_name AS BLOB)) FROM person"),
        columns: [nil]
      ) { stored = $0[0].stringValue ?? "" }
      #expect(stored == "4A454E004E49464552|9", "the NUL and what follows it are stored")
      let fetched = try #require(try database.fetchObject("Person", primaryKey: [.int(4)]))
      #expect(fetched.databaseValue(forAttribute: "firstName") == .string("JEN\u{0}NIFER"))
    case .postgresql:
      #expect(throws: (any Error).self) {
        _ = try session.run("object.firstName = 'JEN\u{0}NIFER'")
      }
      do {
        _ = try session.run("object.firstName = 'JEN\u{0}NIFER'")
      } catch {
        #expect("\(error)".contains("NUL"), "\(error)")
      }
      _ = try? session.run("save")
      var stored = ""
      try database.adaptor.query(
        SQLStatement(raw: "SELECT first_name FROM person WHERE id = 4"), columns: [nil]
      ) { stored = $0[0].stringValue ?? "" }
      #expect(stored == "JENNIFER", "nothing was written")
    }
  }

  @Test(arguments: TestServer.available)
  func aSaveOfAValueSetAroundTheSessionIsRefusedByItsField(server: TestServer) throws {
    // The last line of defence: a value set on the object directly is checked at save.
    guard server == .postgresql else { return }
    let target = try PostgresSakila.database(from: Self.sql, prefix: "nul_text")
    let session = try FixtureSession.open(database: target)
    let database = try session.database
    let person = try #require(try database.fetchObject("Person", primaryKey: [.int(4)]))
    try person.setValue(.string("JEN\u{0}NIFER"), forAttribute: "firstName")
    do {
      try database.save(person)
      Issue.record("saved a value PostgreSQL cannot hold")
    } catch let error as DatabaseError {
      #expect(error.code == .invalidValue)
      #expect(error.message.hasPrefix("firstName: ") && error.message.contains("NUL"))
    }
  }
}
