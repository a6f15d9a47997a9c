import D2SModel
import D2STesting
import Testing

/// Several to-manys of one object counted in one statement, as an inspect page counts them:
/// the same numbers as counting each, on both databases.
@Suite struct ToManyCountsTests {
  @Test(arguments: TestDatabase.available)
  func severalToManysAreCountedInOneStatement(_ kind: TestDatabase) throws {
    let database = try kind.open()
    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    let names = film.entity.relationships.filter(\.isToMany).map(\.name)
    #expect(names.count >= 3, "\(names)")
    let each = try Dictionary(
      uniqueKeysWithValues: names.map { ($0, try database.countToMany($0, of: film)) })
    #expect(each.values.contains { $0 > 0 })
    let statements = database.adaptor.statementCount
    #expect(try database.countToManys(names + [names[0]], of: film) == each)
    #expect(database.adaptor.statementCount == statements + 1, "one statement")
    #expect(try database.countToManys([names[0]], of: film) == [names[0]: each[names[0]]])
    #expect(try database.countToManys([], of: film).isEmpty)
    #expect(throws: DatabaseError.self) {
      try database.countToManys([names[0], "title"], of: film)
    }
  }
}
