import D2SModel
import D2STesting
import Testing

/// A column's allowed values (SQLite's `CHECK (rating IN (…))`, PostgreSQL's enum type) are
/// read from the catalog once per connection: an edit form asked for them for each of its
/// text fields, on every request.
@Suite struct AllowedValuesTests {
  @Test(arguments: TestDatabase.available)
  func aColumnsAllowedValuesAreReadOncePerConnection(_ kind: TestDatabase) throws {
    let database = try kind.open()
    let film = try #require(database.model.entity(named: "Film"))
    let rating = try #require(film.attribute(named: "rating"))
    let title = try #require(film.attribute(named: "title"))
    let ratings = ["G", "PG", "PG-13", "R", "NC-17"]
    #expect(try database.allowedValues(of: rating, in: film) == ratings)
    #expect(try database.allowedValues(of: title, in: film) == nil)
    let statements = database.adaptor.statementCount
    for _ in 0..<3 {
      #expect(try database.allowedValues(of: rating, in: film) == ratings)
      #expect(try database.allowedValues(of: title, in: film) == nil)
    }
    #expect(database.adaptor.statementCount == statements, "read once")
    // Another connection reads them for itself.
    let other = try kind.reopen(database)
    let otherFilm = try #require(other.model.entity(named: "Film"))
    let otherRating = try #require(otherFilm.attribute(named: "rating"))
    #expect(try other.allowedValues(of: otherRating, in: otherFilm) == ratings)
  }
}
