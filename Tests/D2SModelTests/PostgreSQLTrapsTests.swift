import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import Testing

/// What PostgreSQL's Sakila does that a naive layer gets wrong.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLTrapsTests {
  @Test func typesReadAsSwiftValues() throws {
    let database = try TestDatabase.postgresql.open()
    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    #expect(film.value(forKey: "rating") as? String == "PG", "enum mpaa_rating")
    #expect(film.value(forKey: "releaseYear") as? Int == 2006, "domain year")
    #expect(
      film.value(forKey: "specialFeatures") as? [String] == [
        "Deleted Scenes", "Behind the Scenes",
      ], "text[]")
    #expect(
      (film.value(forKey: "fulltext") as? String)?.contains("'academi':1") == true, "tsvector")
    let english = try #require(try database.fetchObject("Language", primaryKey: [.int(1)]))
    #expect(
      english.value(forKey: "name") as? String == "English" + String(repeating: " ", count: 13),
      "char(20) keeps its padding, as psql shows it")
    let staff = try #require(try database.fetchObject("Staff", primaryKey: [.int(1)]))
    #expect(staff.value(forKey: "active") as? Bool == true)
    #expect(staff.value(forKey: "picture") == nil, "bytea, NULL here")
  }

  @Test func qualifiersOnEnumsDomainsAndPaddedText() throws {
    let database = try TestDatabase.postgresql.open()
    func count(_ entity: String, _ text: String) throws -> Int {
      try database.count(
        FetchSpecification(entityName: entity, qualifier: try QualifierParser.parse(text)))
    }
    #expect(try count("Film", "rating = 'PG-13'") == 223)
    #expect(try count("Film", "rating like 'PG*'") == 417)
    #expect(try count("Film", "rating ilike 'pg-1?'") == 223)
    #expect(try count("Film", "releaseYear = 2006") == 1000)
    #expect(try count("Language", "name = 'English'") == 1)
  }

  @Test func insertsWhereReturningIsNotAllowed() throws {
    let database = try TestDatabase.postgresql.open()
    let payment = try database.newObject("Payment")
    try payment.setValue(.int(1), forAttribute: "customerId")
    try payment.setValue(.int(1), forAttribute: "staffId")
    try payment.setValue(.int(1), forAttribute: "rentalId")
    try payment.setValue(.decimal(Decimal(string: "2.99")!), forAttribute: "amount")
    try payment.setValue(
      .date(ISODateText.parse("2026-11-23 10:00:00")!), forAttribute: "paymentDate")
    try database.save(payment)
    let id = try #require(payment.value(forKey: "id") as? Int)
    #expect(id > 32_098)
    #expect(payment.value(forKey: "amount") as? Decimal == Decimal(string: "2.99"))

    // A 2007 payment is redirected by a rule into a child table with a key of its own: the
    // save fails clearly and writes nothing.
    let before = try database.count(FetchSpecification(entityName: "Payment"))
    let redirected = try database.newObject("Payment")
    for (key, value) in [
      ("customerId", DatabaseValue.int(1)), ("staffId", .int(1)), ("rentalId", .int(1)),
      ("amount", .int(1)),
    ] {
      try redirected.setValue(value, forAttribute: key)
    }
    try redirected.setValue(
      .date(ISODateText.parse("2007-03-01 10:00:00")!), forAttribute: "paymentDate")
    #expect(throws: DatabaseError.self) { try database.save(redirected) }
    #expect(redirected.isNew)
    #expect(try database.count(FetchSpecification(entityName: "Payment")) == before)
  }

  @Test func triggersFillColumnsOnInsert() throws {
    let database = try TestDatabase.postgresql.open()
    let film = try database.newObject("Film")
    try film.setValue(.string("ZEBRA CROSSING"), forAttribute: "title")
    try film.setValue(.int(1), forAttribute: "languageId")
    try film.setValue(.array(["Trailers"]), forAttribute: "specialFeatures")
    try database.save(film)
    #expect(
      (film.value(forKey: "fulltext") as? String)?.contains("zebra") == true,
      "filled by the BEFORE trigger, read back")
    #expect(film.value(forKey: "specialFeatures") as? [String] == ["Trailers"])
    #expect(film.value(forKey: "rentalDuration") as? Int == 3, "column default")
    // Deleting compares every comparable column but not the tsvector or the array.
    try database.delete(film)
    #expect(try database.fetchObject("Film", primaryKey: [film.primaryKeyValues[0]]) == nil)
  }
}
