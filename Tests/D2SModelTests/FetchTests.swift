import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import Testing

@Suite struct FetchTests {
  func fetch(
    _ database: Database, _ entity: String, _ qualifier: String? = nil, order: [SortOrdering] = [],
    limit: Int? = nil, offset: Int? = nil,
    prefetch: [String] = []
  ) throws -> [DatabaseObject] {
    try database.fetch(
      FetchSpecification(
        entityName: entity, qualifier: try qualifier.map { try QualifierParser.parse($0) },
        sortOrderings: order,
        limit: limit, offset: offset, prefetchKeyPaths: prefetch))
  }

  @Test(arguments: TestDatabase.available)
  func realValues(kind: TestDatabase) throws {
    let database = try kind.open()
    let mary = try database.fetchObject("Customer", primaryKey: [.int(1)])
    #expect(mary?.value(forKey: "firstName") as? String == "MARY")
    #expect(mary?.value(forKey: "lastName") as? String == "SMITH")
    #expect(mary?.value(forKeyPath: "address.address") as? String == "1913 Hanoi Way")
    let film = try database.fetchObject("Film", primaryKey: [.int(1)])
    #expect(film?.value(forKey: "title") as? String == "ACADEMY DINOSAUR")
    #expect(film?.value(forKey: "replacementCost") as? Decimal == Decimal(string: "20.99"))
    #expect((film?.value(forKey: "rentalRate") as? Decimal)?.description == "0.99")
    #expect(film?.value(forKey: "lastUpdate") as? Date == ISODateText.parse("2006-02-15 05:03:42"))
    #expect(try database.count(FetchSpecification(entityName: "Rental")) == 16_044)
    #expect(try database.fetchObject("Film", primaryKey: [.int(9999)]) == nil)
  }

  @Test(arguments: TestDatabase.available)
  func defaultOrderIsThePrimaryKey(kind: TestDatabase) throws {
    let database = try kind.open()
    let actors = try fetch(database, "Actor", limit: 3)
    #expect(actors.map { $0.value(forKey: "id") as? Int } == [1, 2, 3])
    let page = try fetch(database, "Actor", limit: 2, offset: 10)
    #expect(page.map { $0.value(forKey: "id") as? Int } == [11, 12])
    #expect(try fetch(database, "Actor", offset: 198).count == 2)
  }

  @Test(arguments: TestDatabase.available)
  func orderings(kind: TestDatabase) throws {
    let database = try kind.open()
    let byName = try fetch(
      database, "Actor",
      order: [SortOrdering("lastName", ascending: false), SortOrdering("firstName")], limit: 2)
    #expect(byName.map { $0.value(forKey: "lastName") as? String } == ["ZELLWEGER", "ZELLWEGER"])
    #expect(byName.map { $0.value(forKey: "firstName") as? String } == ["CAMERON", "JULIA"])
    let byCountry = try fetch(
      database, "City", order: [SortOrdering("country.country"), SortOrdering("city")], limit: 1)
    #expect(byCountry.first?.value(forKey: "city") as? String == "Kabul")
  }

  @Test(arguments: TestDatabase.available)
  func qualifiersOverKeyPaths(kind: TestDatabase) throws {
    let database = try kind.open()
    let canadians = try fetch(database, "Customer", "address.city.country.country = 'Canada'")
    #expect(canadians.count == 5)
    #expect(try fetch(database, "Film", "title like 'ACADEMY*'").count == 1)
    #expect(
      try fetch(database, "Film", "title like 'academy*'").count == 0, "like is case-sensitive")
    #expect(try fetch(database, "Film", "title ilike 'academy*'").count == 1)
    #expect(try fetch(database, "Film", "title like '?CADEMY DINOSAU?'").count == 1)
    #expect(try fetch(database, "Actor", "id in (1, 2, 3, 999)").count == 3)
    #expect(try fetch(database, "Actor", "id in ()").count == 0)
    #expect(try fetch(database, "Film", "originalLanguageId = nil").count == 1000)
    #expect(try fetch(database, "Film", "originalLanguageId != 1").count == 1000, "!= is nil-safe")
    #expect(try fetch(database, "Rental", "returnDate is nil").count == 183)
    #expect(try fetch(database, "Film", "rentalRate = 0.99 AND length > 180").count > 0)
    #expect(try fetch(database, "Payment", "amount >= 11.99").count == 10)
  }

  @Test(arguments: TestDatabase.available)
  func sqlAgreesWithInMemoryEvaluation(kind: TestDatabase) throws {
    let database = try kind.open()
    let all = try fetch(database, "Address", prefetch: ["city.country"])
    let qualifiers = [
      "address2 = nil", "address2 != nil", "address2 < 'A'", "address2 <= ''", "postalCode > '9'",
      "NOT postalCode > '5'",
      "district like 'A*'", "NOT (address2 = '')", "city.country.country in ('Canada', 'Japan')",
      "address2 = ''",
      "NOT address2 < 'x'", "city.city ilike '*ON*' OR phone like '1*'", "cityId < id",
      "address2 = postalCode",
    ]
    for text in qualifiers {
      let qualifier = try QualifierParser.parse(text)
      let fetched = try fetch(database, "Address", text).map { $0.value(forKey: "id") as? Int }
      let filtered = all.filter { qualifier.evaluate(with: $0) }.map {
        $0.value(forKey: "id") as? Int
      }
      #expect(fetched == filtered, "\(text)")
    }
  }

  @Test(arguments: TestDatabase.available)
  func badQualifiersAreClearErrors(kind: TestDatabase) throws {
    let database = try kind.open()
    #expect(throws: DatabaseError.self) { try fetch(database, "Film", "nope = 1") }
    #expect(throws: DatabaseError.self) { try fetch(database, "Film", "length = 'long'") }
    #expect(throws: DatabaseError.self) { try fetch(database, "Customer", "rentals = 1") }
    #expect(throws: DatabaseError.self) {
      try fetch(database, "Customer", order: [SortOrdering("rentals.rentalDate")])
    }
    #expect(throws: DatabaseError.self) { try fetch(database, "Nothing") }
  }

  @Test(arguments: TestDatabase.available)
  func prefetchingDoesNotQueryPerRow(kind: TestDatabase) throws {
    let database = try kind.open()
    // The tables' columns and keys, which SQLite reads when the model first needs them.
    _ = database.model.entity(named: "Rental")?.attributes
    let before = database.adaptor.statementCount
    let rentals = try fetch(
      database, "Rental", limit: 1_000, prefetch: ["customer.lastName", "inventory.film.title"])
    let statements = database.adaptor.statementCount - before
    #expect(rentals.count == 1_000)
    #expect(statements == 4, "rentals, customers, inventories, films")
    let titles = rentals.compactMap { $0.value(forKeyPath: "inventory.film.title") as? String }
    let names = rentals.compactMap { $0.value(forKeyPath: "customer.lastName") as? String }
    #expect(titles.count == 1_000)
    #expect(names.count == 1_000)
    #expect(
      database.adaptor.statementCount - before == 4, "reading the key paths ran no more statements")
    #expect(
      rentals.first?.value(forKeyPath: "inventory.film.title") as? String == "BLANKET BEVERLY")
  }

  @Test(arguments: TestDatabase.available)
  func toManyOnDemand(kind: TestDatabase) throws {
    let database = try kind.open()
    guard let mary = try database.fetchObject("Customer", primaryKey: [.int(1)]) else {
      Issue.record("no customer 1")
      return
    }
    #expect(try database.countToMany("rentals", of: mary) == 32)
    let rentals = mary.value(forKey: "rentals") as? [DatabaseObject]
    #expect(rentals?.count == 32)
    #expect(mary.value(forKeyPath: "rentals.@count") as? Int == 32)
    let film = try database.fetchObject("Film", primaryKey: [.int(1)])
    #expect((film?.value(forKey: "filmActors") as? [DatabaseObject])?.count == 10)
  }
}
