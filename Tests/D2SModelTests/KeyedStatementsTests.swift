import D2STesting
import EnvKeys
import Testing

@testable import D2SModel

/// An object fetched by its key, or a to-one's destination by its join, runs the statement
/// kept for its entity and key attributes with its own values bound: each object comes back
/// itself, whatever was fetched before it, with composite and non-ASCII keys, and keys that
/// are NULL, unknown or of the wrong type.
@Suite struct KeyedStatementsTests {
  /// A composite primary key of text and integer, a non-ASCII key, and a to-one by two columns.
  static let schema = """
    CREATE TABLE shelf (room TEXT NOT NULL, number INTEGER NOT NULL, label TEXT,
      PRIMARY KEY (room, number));
    CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT, room TEXT, number INTEGER,
      FOREIGN KEY (room, number) REFERENCES shelf (room, number));
    INSERT INTO shelf VALUES ('attic', 1, 'dusty'), ('attic', 2, 'tall'), ('café', 1, 'warm');
    INSERT INTO book VALUES (1, 'Dune', 'attic', 2), (2, 'Emma', 'café', 1),
      (3, 'Loose', NULL, NULL);
    """

  @Test(arguments: TestDatabase.available)
  func eachObjectComesBackItselfThroughTheKeptStatement(kind: TestDatabase) throws {
    let database = try kind.open(Self.schema, prefix: "keyed")
    func label(_ room: String, _ number: DatabaseValue) throws -> String? {
      try database.fetchObject("Shelf", primaryKey: [.string(room), number])?
        .databaseValue(forAttribute: "label")?.stringValue
    }
    #expect(try label("attic", .int(1)) == "dusty")
    #expect(database.keyedStatements.count == 1, "kept after the first")
    #expect(try label("attic", .int(2)) == "tall")
    #expect(try label("café", .int(1)) == "warm")
    #expect(try label("attic", .int(3)) == nil)
    #expect(try label("attic", .null) == nil)
    #expect(try label("attic", .int(1)) == "dusty", "after a NULL key")
    #expect(database.keyedStatements.count == 1)

    func title(_ id: Int) throws -> String? {
      try database.fetchObject("Book", primaryKey: [.int(id)])?.databaseValue(
        forAttribute: "title")?.stringValue
    }
    #expect(try (1...3).map(title) == ["Dune", "Emma", "Loose"])
    // To-ones by a two-column join, one of them with no destination.
    let shelves = try (1...3).map { id in
      let book = try #require(try database.fetchObject("Book", primaryKey: [.int(id)]))
      let shelf = try #require(book.entity.toOneRelationships.first)
      return try database.fetchDestination(of: shelf, from: book)?
        .databaseValue(forAttribute: "label")?.stringValue
    }
    #expect(shelves == ["tall", "warm", nil])
    #expect(database.keyedStatements.count == 2)
  }

  @Test(arguments: TestDatabase.available)
  func eachObjectsToManysAreCountedThroughTheKeptStatement(kind: TestDatabase) throws {
    let database = try kind.open()
    let names = ["actors", "categories", "inventories"]
    var counts: [[String: Int]] = []
    for id in [1, 2, 3, 1] {
      let film = try #require(try database.fetchObject("Film", primaryKey: [.int(id)]))
      let together = try database.countToManys(names, of: film)
      // One at a time, each through its own statement, as the reference.
      let alone = try Dictionary(
        uniqueKeysWithValues: names.map { ($0, try database.countToMany($0, of: film)) })
      #expect(together == alone, "film \(id)")
      counts.append(together)
    }
    #expect(counts[0] == ["actors": 10, "categories": 1, "inventories": 8])
    #expect(counts[1] == ["actors": 4, "categories": 1, "inventories": 3])
    #expect(counts[3] == counts[0])
    #expect(database.keyedStatements.count == 2, "the film's, and its counts'")
    // One relationship alone, as an actor's inspect page counts its films.
    let films = try [1, 2, 3].map { id in
      let actor = try #require(try database.fetchObject("Actor", primaryKey: [.int(id)]))
      let counted = try database.countToManys(["films"], of: actor)["films"]
      #expect(counted == (try database.countToMany("films", of: actor)), "actor \(id)")
      return counted
    }
    #expect(films == [19, 25, 22])
    #expect(database.keyedStatements.count == 4)
    #expect(
      try database.countToManys(
        [],
        of: try #require(
          try database.fetchObject(
            "Actor", primaryKey: [.int(1)]))) == [:])
  }

  @Test func aKeyThatCannotBeCoercedIsTheBuildersError() throws {
    let database = try TestDatabase.sqlite.open(Self.schema, prefix: "keyed")
    #expect(throws: DatabaseError.self) {
      try database.fetchObject("Book", primaryKey: [.string("not a number")])
    }
    #expect(database.keyedStatements.count == 0)
    #expect(
      try database.fetchObject("Book", primaryKey: [.int(2)])?.databaseValue(
        forAttribute: "title") == .string("Emma"))
  }
}
