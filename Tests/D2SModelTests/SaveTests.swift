import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import SQLiteAdaptor
import Testing

@Suite struct SaveTests {
  @Test(arguments: TestDatabase.available)
  func updatesAreWrittenAndRefetched(kind: TestDatabase) throws {
    let database = try kind.open()
    let actor = try #require(try database.fetchObject("Actor", primaryKey: [.int(1)]))
    try actor.setValue(.string("PENNY"), forAttribute: "firstName")
    #expect(actor.changedKeys == ["firstName"])
    try database.save(actor)
    #expect(actor.changedKeys.isEmpty)
    #expect(actor.value(forKey: "firstName") as? String == "PENNY")
    // The AFTER UPDATE trigger stamped last_update, and the refetch shows it.
    #expect(actor.value(forKey: "lastUpdate") as? Date != ISODateText.parse("2006-02-15 04:34:33"))
    let again = try database.fetchObject("Actor", primaryKey: [.int(1)])
    #expect(again?.value(forKey: "firstName") as? String == "PENNY")
  }

  @Test(arguments: TestDatabase.available)
  func insertsReadBackTheirKeyAndStampNotNullDates(kind: TestDatabase) throws {
    let database = try kind.open()
    let actor = try database.newObject("Actor")
    try actor.setValue(.string("ADA"), forAttribute: "firstName")
    try actor.setValue(.string("LOVELACE"), forAttribute: "lastName")
    try database.save(actor)
    #expect(actor.isNew == false)
    #expect(actor.value(forKey: "id") as? Int == 201)
    #expect(actor.value(forKey: "lastUpdate") is Date)
    #expect(try database.count(FetchSpecification(entityName: "Actor")) == 201)
  }

  /// The time a save stamps is the clock dependency's: a test fixes it in one line and reads
  /// the stored bytes back.
  @Test func aSaveStampsTheTimeOfTheClockItRunsWith() throws {
    // A NOT NULL date with no default: an insert stamps it with the time now.
    let path = try TestDatabases.sqliteFile(
      "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, created DATETIME NOT NULL);",
      named: "notes")
    let database = try Database(adaptor: SQLiteAdaptor(path: path))
    let note = try database.newObject("Note")
    try note.setValue(.string("hello"), forAttribute: "body")
    let moment = try #require(ISODateText.parse("2030-01-02 03:04:05"))
    try withDependencies {
      $0.clock = .fixed(moment)
    } operation: {
      try database.save(note)
    }
    #expect(
      try database.adaptor.scalar("SELECT quote(created) FROM note")
        == .string("'2030-01-02 03:04:05'"))
  }

  @Test(arguments: TestDatabase.available)
  func compositeKeysInsertAndDelete(kind: TestDatabase) throws {
    let database = try kind.open()
    let link = try database.newObject("FilmActor")
    try link.setValue(.int(1), forAttribute: "actorId")
    try link.setValue(.int(2), forAttribute: "filmId")
    try database.save(link)
    #expect(link.primaryKeyDescription == "1,2")
    let fetched = try #require(
      try database.fetchObject("FilmActor", primaryKey: [.int(1), .int(2)]))
    try database.delete(fetched)
    #expect(try database.fetchObject("FilmActor", primaryKey: [.int(1), .int(2)]) == nil)
  }

  @Test(arguments: TestDatabase.available)
  func decimalsAndDatesRoundTripExactly(kind: TestDatabase) throws {
    let database = try kind.open()
    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    try film.setValue(.decimal(Decimal(string: "19.99")!), forAttribute: "replacementCost")
    try database.save(film)
    #expect(film.value(forKey: "replacementCost") as? Decimal == Decimal(string: "19.99"))
    let rental = try #require(try database.fetchObject("Rental", primaryKey: [.int(1)]))
    let date = try #require(ISODateText.parse("2006-01-02 03:04:05"))
    try rental.setValue(.date(date), forAttribute: "returnDate")
    try database.save(rental)
    var stored: String?
    try database.adaptor.query(
      SQLStatement(raw: "SELECT CAST(return_date AS TEXT) FROM rental WHERE rental_id = 1"),
      columns: [nil]
    ) { row in
      stored = row[0].stringValue
    }
    #expect(stored == "2006-01-02 03:04:05", "written back in the form the column uses")
  }

  @Test(arguments: TestDatabase.available)
  func conflictingUpdatesAndDeletesChangeNothing(kind: TestDatabase) throws {
    let first = try kind.open()
    let second = try kind.reopen(first)
    let mine = try #require(try first.fetchObject("Actor", primaryKey: [.int(2)]))
    let theirs = try #require(try second.fetchObject("Actor", primaryKey: [.int(2)]))
    try theirs.setValue(.string("NICKY"), forAttribute: "firstName")
    try second.save(theirs)

    try mine.setValue(.string("NICOLAS"), forAttribute: "firstName")
    let error = #expect(throws: DatabaseError.self) { try first.save(mine) }
    #expect(error?.code == .conflict)
    #expect(error?.message.contains("Actor 2") == true)
    #expect(mine.changedKeys == ["firstName"], "the pending change is kept")
    #expect(
      try first.fetchObject("Actor", primaryKey: [.int(2)])?.value(forKey: "firstName") as? String
        == "NICKY")

    // A change to another column does not conflict.
    let other = try #require(try first.fetchObject("Actor", primaryKey: [.int(3)]))
    let otherTheirs = try #require(try second.fetchObject("Actor", primaryKey: [.int(3)]))
    try otherTheirs.setValue(.string("X"), forAttribute: "lastName")
    try second.save(otherTheirs)
    try other.setValue(.string("Y"), forAttribute: "firstName")
    try first.save(other)
    #expect(other.value(forKey: "lastName") as? String == "X")

    // Deleting a row someone changed conflicts too.
    let stale = try #require(try first.fetchObject("Language", primaryKey: [.int(6)]))
    let fresh = try #require(try second.fetchObject("Language", primaryKey: [.int(6)]))
    try fresh.setValue(.string("Deutsch"), forAttribute: "name")
    try second.save(fresh)
    #expect(throws: DatabaseError.self) { try first.delete(stale) }
    #expect(try first.fetchObject("Language", primaryKey: [.int(6)]) != nil)
  }

  @Test(arguments: TestDatabase.available)
  func constraintViolationsAreTypedAndWriteNothing(kind: TestDatabase) throws {
    let database = try kind.open()
    let actor = try #require(try database.fetchObject("Actor", primaryKey: [.int(1)]))
    try actor.setValue(.null, forAttribute: "firstName")
    #expect((#expect(throws: DatabaseError.self) { try database.save(actor) })?.code == .notNull)
    #expect(actor.changedKeys == ["firstName"])

    let address = try #require(try database.fetchObject("Address", primaryKey: [.int(1)]))
    try address.setValue(.int(99_999), forAttribute: "cityId")
    #expect(
      (#expect(throws: DatabaseError.self) { try database.save(address) })?.code == .foreignKey)

    let category = try #require(
      try database.fetchObject("FilmCategory", primaryKey: [.int(1), .int(6)]))
    try category.setValue(.int(2), forAttribute: "filmId")
    try category.setValue(.int(11), forAttribute: "categoryId")  // film 2 is already in category 11
    #expect((#expect(throws: DatabaseError.self) { try database.save(category) })?.code == .unique)

    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    if kind == .sqlite {
      try film.setValue(.string("XXX"), forAttribute: "rating")  // CHECK (rating IN (…))
    } else {
      try film.setValue(.int(1800), forAttribute: "releaseYear")  // the `year` domain's CHECK
    }
    #expect((#expect(throws: DatabaseError.self) { try database.save(film) })?.code == .check)
    film.revert()

    #expect(
      try database.fetchObject("Actor", primaryKey: [.int(1)])?.value(forKey: "firstName")
        as? String == "PENELOPE")
    #expect(
      try database.fetchObject("Film", primaryKey: [.int(1)])?.value(forKey: "rating") as? String
        == "PG")
  }

  @Test(arguments: TestDatabase.available)
  func viewsAreReadOnly(kind: TestDatabase) throws {
    let database = try kind.open()
    #expect(throws: DatabaseError.self) { try database.newObject("CustomerList") }
    let rows = try database.fetch(FetchSpecification(entityName: "CustomerList", limit: 1))
    #expect(rows.count == 1)
    #expect(throws: DatabaseError.self) {
      try database.fetchObject("SalesByStore", primaryKey: [.int(1)])
    }
  }

  @Test(arguments: TestDatabase.available)
  func revertDropsPendingChanges(kind: TestDatabase) throws {
    let database = try kind.open()
    let actor = try #require(try database.fetchObject("Actor", primaryKey: [.int(1)]))
    let version = actor.ruleCacheVersion
    try actor.setValue(.string("X"), forAttribute: "firstName")
    #expect(actor.ruleCacheVersion != version)
    actor.revert()
    #expect(actor.value(forKey: "firstName") as? String == "PENELOPE")
    #expect(!actor.hasChanges)
  }
}

@Suite struct TimestampAndCycleTests {
  @Test(arguments: TestDatabase.available)
  func timestampKeysStampTheirColumns(kind: TestDatabase) throws {
    let database = try kind.open()
    let customer = try #require(try database.fetchObject("Customer", primaryKey: [.int(1)]))
    let created = customer.value(forKey: "createDate") as? Date
    try customer.setValue(.string("M"), forAttribute: "firstName")
    let before = Date().addingTimeInterval(-2)
    try database.save(
      customer, options: .init(creationTimestampKey: "createDate", updateTimestampKey: "lastUpdate")
    )
    #expect(
      customer.value(forKey: "createDate") as? Date == created, "creation stamps only on insert")
    let updated = try #require(customer.value(forKey: "lastUpdate") as? Date)
    #expect(updated >= before)
    #expect(throws: DatabaseError.self) {
      try customer.setValue(.string("N"), forAttribute: "firstName")
      try database.save(customer, options: .init(updateTimestampKey: "nothing"))
    }
  }

  @Test(arguments: TestDatabase.available)
  func theStoreStaffCycleNavigatesBothWays(kind: TestDatabase) throws {
    let database = try kind.open()
    let store = try #require(try database.fetchObject("Store", primaryKey: [.int(1)]))
    #expect(store.value(forKeyPath: "managerStaff.firstName") as? String == "Mike")
    #expect(store.value(forKeyPath: "managerStaff.store.id") as? Int == 1)
    #expect((store.value(forKey: "staff") as? [DatabaseObject])?.count == 1)
  }
}
