import D2SModel
import EnvKeys
import Qualifiers
import Testing

/// Many-to-many relationships flattened through Sakila's link tables, and qualifiers that
/// cross to-many relationships with "any" semantics, in SQL and in memory alike.
@Suite struct ManyToManyTests {
  @Test(arguments: TestDatabase.available)
  func linkTablesGiveBothEndsAFlattenedToMany(kind: TestDatabase) throws {
    let model = try kind.open().model
    let actors = try #require(model.entity(named: "Film")?.relationship(named: "actors"))
    #expect(actors.destinationName == "Actor")
    #expect(actors.isToMany && actors.isFlattened)
    #expect(actors.definition == ["filmActors", "actor"])
    #expect(actors.inverseName == "films")
    #expect(
      model.entity(named: "Actor")?.relationship(named: "films")?.definition == [
        "filmActors", "film",
      ])
    #expect(
      model.entity(named: "Film")?.relationship(named: "categories")?.destinationName == "Category")
    #expect(
      model.entity(named: "Category")?.relationship(named: "films")?.destinationName == "Film")
    #expect(
      model.entity(named: "FilmActor")?.relationships.map(\.name) == ["actor", "film"],
      "the link's own stay")
    #expect(model.entity(named: "Film")?.relationship(named: "filmActors")?.isFlattened == false)
    // Inventory holds more than two keys (store, film): not a link table.
    #expect(model.entity(named: "Film")?.relationship(named: "stores") == nil)
  }

  @Test(arguments: TestDatabase.available)
  func followingAManyToMany(kind: TestDatabase) throws {
    let database = try kind.open()
    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    let actors = try #require(film.value(forKey: "actors") as? [DatabaseObject])
    #expect(actors.count == 10)
    #expect(actors.first?.defaultTitle == "PENELOPE GUINESS")
    let actorsRelationship = try #require(film.entity.relationship(named: "actors"))
    #expect(database.qualifier(for: actorsRelationship, of: film).description == "films.id = 1")
    #expect(try database.countToMany("actors", of: film) == 10)
  }

  @Test(arguments: TestDatabase.available)
  func qualifiersCrossToManysWithAnySemantics(kind: TestDatabase) throws {
    let database = try kind.open()
    func check(
      _ entity: String, _ text: String, _ expected: Int,
      sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
      let qualifier = try QualifierParser.parse(text)
      let fetched = try database.fetch(FetchSpecification(entityName: entity, qualifier: qualifier))
      #expect(fetched.count == expected, "\(text) in SQL", sourceLocation: sourceLocation)
      let all = try database.fetch(FetchSpecification(entityName: entity))
      let inMemory = all.filter { qualifier.evaluate(with: $0) }
      #expect(
        inMemory.map(\.primaryKeyValues) == fetched.map(\.primaryKeyValues), "\(text) in memory",
        sourceLocation: sourceLocation)
    }
    try check("Actor", "films.title = 'ACADEMY DINOSAUR'", 10)
    try check("Actor", "NOT films.title = 'ACADEMY DINOSAUR'", 190)
    try check("Actor", "filmActors.film.title = 'ACADEMY DINOSAUR'", 10)
    try check("Language", "films.title like 'ACADEMY*'", 1)
    try check("Language", "films.title != nil", 1)
    try check("Category", "films.actors.lastName = 'GUINESS' AND name = 'Animation'", 1)
  }

  @Test func thePathMustEndAtAnAttribute() throws {
    let database = try TestDatabase.sqlite.open()
    let qualifier = try QualifierParser.parse("films = 1")
    #expect(throws: DatabaseError.self) {
      try database.fetch(FetchSpecification(entityName: "Actor", qualifier: qualifier))
    }
  }
}
