import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// A save the database would refuse says so in the REPL's words: a new row without the
/// values its columns require is not sent (the page already marked them), and a constraint
/// the database checks is named with "not saved" before its own message. Before, the first
/// was sent and both came back as SQLite's message alone.
@Suite struct SaveRefusalTests {
  static func count(_ path: String) throws -> Int {
    var count = 0
    try SQLiteAdaptor(path: path).query(
      SQLStatement(raw: "SELECT count(*) FROM actor"), columns: [nil]
    ) { count = $0[0].intValue ?? -1 }
    return count
  }

  @Test func aNewRowWithoutItsRequiredValuesIsNotSent() throws {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    _ = try session.run("new Actor")
    _ = try session.run("object.firstName = 'ADA'")
    #expect {
      try session.run("save")
    } throws: { "\($0)".contains("not saved: Last Name needs a value") }
    #expect(try Self.count(path) == 200)
    _ = try session.run("object.lastName = 'LOVELACE'")
    #expect(try session.run("save").contains("saved Actor"))
  }

  @Test func aConstraintTheDatabaseChecksSaysNotSaved() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("edit Film 1")
    _ = try session.run("object.rating = 'XX'")
    #expect {
      try session.run("save")
    } throws: { "\($0)".hasPrefix("not saved: the database does not accept this value") }
  }
}
