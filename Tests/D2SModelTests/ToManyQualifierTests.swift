import D2STesting
import EnvKeys
import Qualifiers
import Testing

@testable import D2SModel

/// Qualifiers across a to-many relationship keep "any" semantics, agreeing with in-memory
/// evaluation, where keys on either side are NULL (a shelf without a code, a book on no shelf),
/// negated too, whether the destinations' keys are gathered first (an equality on SQLite) or
/// probed per row (any other test, and PostgreSQL's); and SQLite reads a film's actors through
/// the link table's index instead of visiting every actor.
@Suite struct ToManyQualifierTests {
  /// Shelves joined to their books by a nullable, non-key integer column (`code`).
  static let schema = """
    CREATE TABLE shelf (shelf_id INTEGER PRIMARY KEY, code INTEGER UNIQUE, label TEXT);
    CREATE TABLE book (book_id INTEGER PRIMARY KEY,
      shelf_code INTEGER REFERENCES shelf (code), title TEXT);
    INSERT INTO shelf VALUES (1, 10, 'first'), (2, NULL, 'no code'), (3, 30, 'empty');
    INSERT INTO book VALUES (1, 10, 'Dune'), (2, 10, 'Emma'), (3, NULL, 'Loose'),
      (4, NULL, 'Dune');
    """

  @Test(arguments: TestDatabase.available)
  func nullKeysOnEitherSideNeverMatchAndNegationIsTheComplement(kind: TestDatabase) throws {
    let database = try kind.open(Self.schema, prefix: "shelf")
    #expect(database.model.entity(named: "Shelf")?.relationship(named: "books")?.isToMany == true)
    func check(
      _ text: String, _ expected: [Int], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
      let qualifier = try QualifierParser.parse(text)
      let fetched = try database.fetch(
        FetchSpecification(
          entityName: "Shelf", qualifier: qualifier, sortOrderings: [SortOrdering("id")]))
      #expect(
        fetched.map { $0.primaryKeyValues } == expected.map { [DatabaseValue.int($0)] },
        "\(text) in SQL", sourceLocation: sourceLocation)
      let all = try database.fetch(
        FetchSpecification(entityName: "Shelf", sortOrderings: [SortOrdering("id")]))
      #expect(
        all.filter { qualifier.evaluate(with: $0) }.map(\.primaryKeyValues)
          == fetched.map(\.primaryKeyValues), "\(text) in memory", sourceLocation: sourceLocation)
      #expect(
        try database.count(FetchSpecification(entityName: "Shelf", qualifier: qualifier))
          == expected.count, "\(text) counted", sourceLocation: sourceLocation)
    }
    // The shelf without a code holds no book, not even those on no shelf.
    try check("books.title = 'Dune'", [1])
    try check("NOT books.title = 'Dune'", [2, 3])
    try check("books.title != nil", [1])
    try check("NOT books.title like 'E*'", [2, 3])
    // Only books on no shelf are called so: no shelf has one, so every shelf has none.
    try check("books.title = 'Loose'", [])
    try check("NOT books.title = 'Loose'", [1, 2, 3])
    try check("NOT (books.title = 'Dune' OR label = 'empty')", [2])
    // Gathered under two NOTs, probed under one.
    try check("NOT (NOT books.title = 'Dune')", [1])
    try check("NOT (NOT books.title = 'Loose')", [])
    try check("books.title in ('Emma', 'Loose')", [1])
    try check("NOT books.title in ('Emma', 'Loose')", [2, 3])
    // Counted through the statement kept for the first shelf; the shelf without a code has none.
    for (id, expected) in [(1, 2), (2, 0), (3, 0), (1, 2)] {
      let shelf = try #require(try database.fetchObject("Shelf", primaryKey: [.int(id)]))
      #expect(try database.countToManys(["books"], of: shelf) == ["books": expected])
      #expect(try database.countToMany("books", of: shelf) == expected)
    }
  }

  /// Text keys keep `EXISTS`: SQLite compares `target = source` in the destination column's
  /// collation, as fetching the to-many does; an `IN` would take the source's (`NOCASE` here,
  /// matching `ABC` to `abc`).
  @Test func textKeysCompareInTheDestinationsCollation() throws {
    let database = try TestDatabases.sqlite(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY, code TEXT COLLATE NOCASE UNIQUE);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent_code TEXT REFERENCES parent (code),
        name TEXT);
      INSERT INTO parent VALUES (1, 'abc'), (2, 'xyz');
      INSERT INTO child VALUES (1, 'ABC', 'x'), (2, 'xyz', 'y');
      """)
    for (text, expected) in [("children.name = 'x'", [Int]()), ("children.name = 'y'", [2])] {
      let qualifier = try QualifierParser.parse(text)
      let fetched = try database.fetch(
        FetchSpecification(entityName: "Parent", qualifier: qualifier))
      #expect(fetched.map(\.primaryKeyValues) == expected.map { [.int($0)] }, "\(text)")
      let all = try database.fetch(FetchSpecification(entityName: "Parent"))
      #expect(
        all.filter { qualifier.evaluate(with: $0) }.map(\.primaryKeyValues)
          == fetched.map(\.primaryKeyValues), "\(text) in memory")
    }
  }

  @Test func sqliteReadsAFilmsActorsThroughTheLinkTablesIndex() throws {
    let database = try TestDatabase.sqlite.open()
    let film = try #require(try database.fetchObject("Film", primaryKey: [.int(1)]))
    let actors = try #require(film.entity.relationship(named: "actors"))
    let actor = try #require(database.model.entity(named: "Actor"))
    var builder = database.builder(for: actor)
    let statement = try builder.select(
      FetchSpecification(
        entityName: "Actor", qualifier: database.qualifier(for: actors, of: film)),
      attributes: [])
    var plan: [String] = []
    try database.adaptor.query(
      SQLStatement(raw: "EXPLAIN QUERY PLAN " + statement.sql, statement.bindings),
      columns: [nil, nil, nil, nil]
    ) { plan.append($0[3].stringValue ?? "") }
    #expect(!plan.isEmpty)
    #expect(
      !plan.contains { $0.hasPrefix("SCAN t0") }, "every actor visited: \(plan)")
    // A test most destinations pass keeps probing per row: a page of actors is found among
    // the first, with no need to gather every film's key.
    var broad = database.builder(for: actor)
    let probing = try broad.select(
      FetchSpecification(
        entityName: "Actor", qualifier: try QualifierParser.parse("films.title != nil"),
        limit: 20),
      attributes: [])
    #expect(probing.sql.contains("EXISTS (SELECT 1 FROM"))
    #expect(statement.sql.contains(" IN (SELECT "))
    #expect(try database.countToMany("actors", of: film) == 10)
    #expect(
      try database.countToManys(["actors", "categories"], of: film) == [
        "actors": 10, "categories": 1,
      ])
  }
}
