import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

/// A relationship read through key-value coding cannot throw: when the database cannot answer
/// it (a lock held past the busy timeout, the statement timeout, a lost connection), the
/// failure is kept on the database, and the next save, delete or link change refuses to write
/// on decisions that may have read the missing value; the front ends report it too.
@Suite struct RelationshipReadFailureTests {
  static let schema = """
    CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
      owner_id INTEGER REFERENCES owner (id));
    INSERT INTO owner VALUES (1, 'ann');
    INSERT INTO item VALUES (1, 'lamp', 1), (2, 'desk', 1);
    """

  /// The item, fetched; then its owner asked for while another connection holds the file:
  /// whether the answer was nil. The wait for the busy timeout (5 s) runs off Swift's shared
  /// threads, which other tests' awaits need.
  static func itemReadUnderLock(
    _ key: Int, _ relationship: String
  ) async throws -> (Database, DatabaseObject, Bool) {
    let path = try TestDatabases.sqliteFile(schema, named: "owners")
    let database = try Database(adaptor: SQLiteAdaptor(path: path))
    let item = try #require(try database.fetchObject("Item", primaryKey: [.int(key)]))
    let isNil = try await offThePool {
      let locker = try SQLiteAdaptor(path: path)
      try locker.executeScript("BEGIN EXCLUSIVE")
      defer { try? locker.executeScript("COMMIT") }
      return item.value(forKey: relationship) == nil
    }
    return (database, item, isNil)
  }

  @Test(.timeLimit(.minutes(1)))
  func aSaveAfterAToOneCouldNotBeReadWritesNothing() async throws {
    let (database, item, unread) = try await Self.itemReadUnderLock(1, "owner")
    #expect(unread, "the lock was held")
    try item.setValue(.string("lamp, mended"), forAttribute: "name")
    #expect {
      try database.save(item)
    } throws: { ($0 as? DatabaseError)?.code == .locked }
    #expect(try database.adaptor.scalar("SELECT name FROM item WHERE id = 1") == .string("lamp"))
    #expect(item.changedKeys == ["name"], "the change is still pending")
    // Reported once: the save asked again is made on what is read now.
    try database.save(item)
    #expect(
      try database.adaptor.scalar("SELECT name FROM item WHERE id = 1")
        == .string("lamp, mended"))
  }

  @Test(.timeLimit(.minutes(1)))
  func aDeleteAfterAToManyCouldNotBeReadDeletesNothing() async throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "owners")
    let database = try Database(adaptor: SQLiteAdaptor(path: path))
    let owner = try #require(try database.fetchObject("Owner", primaryKey: [.int(1)]))
    let item = try #require(try database.fetchObject("Item", primaryKey: [.int(2)]))
    let unread = try await offThePool {
      let locker = try SQLiteAdaptor(path: path)
      try locker.executeScript("BEGIN EXCLUSIVE")
      defer { try? locker.executeScript("COMMIT") }
      return (owner.value(forKey: "items") as? [DatabaseObject])?.isEmpty ?? true
    }
    #expect(unread, "the lock was held")
    #expect {
      try database.delete(item)
    } throws: { ($0 as? DatabaseError)?.code == .locked }
    #expect(try database.adaptor.scalar("SELECT count(*) FROM item") == .int(2))
  }

  @Test(.timeLimit(.minutes(1)))
  func theFailureIsThrownOnceAndOnlyAfterItHappened() async throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "owners")
    let database = try Database(adaptor: SQLiteAdaptor(path: path))
    try database.throwFailedRead()
    let item = try #require(try database.fetchObject("Item", primaryKey: [.int(1)]))
    let owner = item.value(forKey: "owner") as? DatabaseObject
    #expect(owner?.value(forKey: "name") as? String == "ann")
    try database.throwFailedRead()

    let (locked, _, unread) = try await Self.itemReadUnderLock(1, "owner")
    #expect(unread)
    #expect {
      try locked.throwFailedRead()
    } throws: { ($0 as? DatabaseError)?.code == .locked }
    try locked.throwFailedRead()
  }
}
