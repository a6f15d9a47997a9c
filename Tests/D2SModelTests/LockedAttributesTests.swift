import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

/// `SaveOptions.lockedAttributes`: an update applies only while the named columns still hold
/// their fetched values, changed or not (an agent's `seen` values).
@Suite struct LockedAttributesTests {
  @Test func aLockedColumnChangedSinceTheFetchIsAConflict() throws {
    let path = try TestDatabases.sqliteFile(
      "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price INTEGER); INSERT INTO item VALUES (1, 'a', 5);",
      named: "locked")
    let database = try Database(adaptor: SQLiteAdaptor(path: path))
    let object = try #require(try database.fetchObject("Item", primaryKey: [.int(1)]))
    try SQLiteAdaptor(path: path).executeScript("UPDATE item SET price = 6 WHERE id = 1")
    try object.setValue(.string("b"), forAttribute: "name")
    #expect(throws: DatabaseError.self) {
      try database.save(object, options: Database.SaveOptions(lockedAttributes: ["price"]))
    }
    var stored = ""
    try SQLiteAdaptor(path: path).query(
      SQLStatement(raw: "SELECT name FROM item WHERE id = 1"), columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "a", "nothing saved")
    // Without the lock the same change applies (only the changed column is compared).
    try database.save(object)
    try SQLiteAdaptor(path: path).query(
      SQLStatement(raw: "SELECT name FROM item WHERE id = 1"), columns: [nil]
    ) { stored = $0[0].stringValue ?? "" }
    #expect(stored == "b")
  }
}
