import D2SModel
import D2STesting
import EnvKeys
import Qualifiers
import SQLiteAdaptor
import Testing

/// A sorted SQLite page counting its selection in its own scan: `d2s_tally()`, a last ORDER BY
/// term, counts the rows the sort takes in. Trusted only when the plan sorts every selected
/// row; then the count is the qualifier's, whatever the window, and the rows are those of the
/// statement without it.
@Suite struct SortTallyTests {
  /// Books with NULL and case-differing titles (a NOCASE column), NULL scores, shelves (some
  /// NULL), and an index on `added`.
  static let schema = """
    CREATE TABLE shelf (shelf_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    INSERT INTO shelf VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
    CREATE TABLE book (
      book_id INTEGER PRIMARY KEY, title TEXT COLLATE NOCASE, score INTEGER,
      shelf_id INTEGER REFERENCES shelf (shelf_id), added TEXT NOT NULL);
    CREATE INDEX book_added ON book (added);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
    INSERT INTO book SELECT i,
      CASE i % 3 WHEN 0 THEN 'alpha ' || (i % 97) WHEN 1 THEN 'Alpha ' || (i % 89) ELSE NULL END,
      CASE WHEN i % 7 = 0 THEN NULL ELSE i % 50 END,
      CASE WHEN i % 11 = 0 THEN NULL ELSE i % 4 + 1 END,
      printf('2024-%02d-%02d %04d', i % 12 + 1, i % 28 + 1, i) FROM n;
    """

  static func database() throws -> Database {
    try Database(adaptor: SQLiteAdaptor(path: try TestDatabases.sqliteFile(schema, named: "tally")))
  }

  static func specification(
    _ qualifier: String?, _ order: [SortOrdering], limit: Int = 5, offset: Int? = nil
  ) throws -> FetchSpecification {
    FetchSpecification(
      entityName: "Book", qualifier: try qualifier.map { try QualifierParser.parse($0) },
      sortOrderings: order, limit: limit, offset: offset)
  }

  static let sorted: [(String?, [SortOrdering], Int?)] = [
    ("score > 10", [SortOrdering("score", ascending: false)], nil),
    ("score = nil", [SortOrdering("title")], nil),
    ("title like 'alpha 1*'", [SortOrdering("title", ascending: false)], 3),
    ("shelf.name = 'b'", [SortOrdering("score"), SortOrdering("title")], 40),
    ("score > 100", [SortOrdering("score")], nil),
    (nil, [SortOrdering("title", caseInsensitive: true)], 2_990),
  ]

  @Test func aWholeSortCountsEverySelectedRowAndReturnsTheSameRows() throws {
    let database = try Self.database()
    let book = try #require(database.model.entity(named: "Book"))
    let paths = [try PropertyPath("shelf.name", from: book, in: database.model)]
    for (qualifier, order, offset) in Self.sorted {
      let window = try Self.specification(qualifier, order, offset: offset)
      #expect(
        try database.sortsEverySelectedRow(window, paths: paths, positions: true),
        "\(qualifier ?? "all") by \(order)")
      var plain: [[DatabaseValue]] = []
      try database.fetchRows(window, paths: paths, positions: true) { plain.append($0) }
      var tallied: [[DatabaseValue]] = []
      let tally = try database.fetchRows(window, paths: paths, positions: true, tallying: true) {
        tallied.append($0)
      }
      let count = try database.count(
        FetchSpecification(entityName: "Book", qualifier: window.qualifier))
      #expect(tally == count, "\(qualifier ?? "all") by \(order)")
      #expect(tallied == plain, "\(qualifier ?? "all") by \(order)")
    }
  }

  @Test func anIndexedOrderIsNotTallied() throws {
    let database = try Self.database()
    // The index gives the order: the statement stops at its LIMIT, having seen a few rows.
    let window = try Self.specification("score > 10", [SortOrdering("added")])
    #expect(try !database.sortsEverySelectedRow(window, paths: []))
    // The index gives the order's left part: SQLite sorts the rows of each `added` alone, and
    // stops at the LIMIT.
    let partly = try Self.specification(
      "score > 10", [SortOrdering("added"), SortOrdering("score")])
    #expect(try !database.sortsEverySelectedRow(partly, paths: []))
  }

  @Test func theTallyIsNotAQueryOfItsOwn() throws {
    let database = try Self.database()
    let window = try Self.specification("score > 10", [SortOrdering("score")])
    // The table's columns, which SQLite reads when the model first needs them.
    _ = database.model.entity(named: "Book")?.attributes
    let before = database.adaptor.statementCount
    _ = try database.sortsEverySelectedRow(window, paths: [])
    let tally = try database.fetchRows(window, paths: [], tallying: true) { _ in }
    // The plan read and the rows: one statement, no count.
    #expect(database.adaptor.statementCount == before + 1)
    let count = try database.count(
      FetchSpecification(entityName: "Book", qualifier: window.qualifier))
    #expect(tally == count)
  }

  @Test func aViewCannotCallTheTally() throws {
    let path = try TestDatabases.sqliteFile(
      Self.schema + "CREATE VIEW tallied AS SELECT d2s_tally() AS t FROM shelf;", named: "tally")
    let adaptor = try SQLiteAdaptor(path: path)
    #expect(throws: DatabaseError.self) {
      try adaptor.query(SQLStatement(raw: "SELECT t FROM tallied"), columns: [nil]) { _ in }
    }
  }
}
