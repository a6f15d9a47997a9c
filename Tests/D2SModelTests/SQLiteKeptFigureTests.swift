import D2SModel
import D2STesting
import Testing

@testable import SQLiteAdaptor

/// Over SQLite, a table's count behind a page's rows, and its estimate, are kept while the
/// file stays the same, and read anew after any change: another connection's commit, this
/// connection's own write, committed or not. A view and a virtual table are counted every
/// time.
@Suite struct SQLiteKeptFigureTests {
  static let schema = """
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
      INSERT INTO item (name) SELECT 'n' || i FROM n;
    CREATE VIEW lucky AS SELECT * FROM item WHERE abs(random()) % 2 = 0;
    CREATE VIRTUAL TABLE words USING fts5(body);
    INSERT INTO words (body) VALUES ('one'), ('two');
    """

  /// A five-row window of `table` and its count, as a list page reads them (its estimate
  /// first); the count and the statements run for them.
  func window(_ database: Database, _ table: String) throws -> (count: Int?, statements: Int) {
    let adaptor = try #require(database.adaptor as? SQLiteAdaptor)
    let entity = try #require(database.model.entities.first { $0.externalName == table })
    // Its columns, which SQLite reads when the model first needs them.
    _ = entity.attributes
    let before = adaptor.statementCount
    _ = try adaptor.estimatedRowCount(of: entity)
    let count = try database.fetchRows(
      FetchSpecification(entityName: entity.name, limit: 5), paths: [],
      counting: FetchSpecification(entityName: entity.name)
    ) { _ in }
    return (count, adaptor.statementCount - before)
  }

  @Test func aTableCountIsKeptUntilTheFileChanges() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "kept")
    let adaptor = try SQLiteAdaptor(path: path)
    let database = try Database(adaptor: adaptor)
    // Estimate, rows and count; then the rows and, once, whether the table is a virtual one.
    #expect(try window(database, "item") == (30, 3))
    #expect(try window(database, "item") == (30, 2))
    #expect(try window(database, "item") == (30, 1), "only the rows while nothing changes")

    // Another connection's commit: read anew at the rows' version, then kept again.
    let other = try SQLiteAdaptor(path: path)
    try other.execute(SQLStatement(raw: "INSERT INTO item (name) VALUES ('o')"))
    // (The estimate read before the rows lags one page: anew on the next.)
    #expect(try window(database, "item") == (31, 2))
    #expect(try window(database, "item") == (31, 2))
    #expect(try window(database, "item") == (31, 1))

    // This connection's own write, outside and inside a transaction.
    try adaptor.execute(SQLStatement(raw: "DELETE FROM item WHERE name = 'o'"))
    #expect(try window(database, "item").count == 30)
    try adaptor.transaction {
      try adaptor.execute(SQLStatement(raw: "INSERT INTO item (name) VALUES ('t')"))
      #expect(try window(database, "item") == (31, 3), "nothing kept while writing")
      #expect(try window(database, "item") == (31, 3))
    }
    #expect(try window(database, "item").count == 31)
    #expect(try window(database, "item") == (31, 1))
    // A rollback leaves the count as it was, read anew.
    struct Undo: Error {}
    _ = try? adaptor.transaction {
      try adaptor.execute(SQLStatement(raw: "INSERT INTO item (name) VALUES ('u')"))
      throw Undo()
    }
    #expect(try window(database, "item").count == 31)
    #expect(try window(database, "item") == (31, 1))
  }

  @Test func aCommitInWriteAheadLogModeShowsToo() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "kept")
    try SQLiteAdaptor(path: path).executeScript("PRAGMA journal_mode = WAL")
    let adaptor = try SQLiteAdaptor(path: path)
    let database = try Database(adaptor: adaptor)
    for _ in 0..<2 { _ = try window(database, "item") }
    #expect(try window(database, "item") == (30, 1))
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "INSERT INTO item (name) VALUES ('w')"))
    #expect(try window(database, "item").count == 31)
    try SQLiteAdaptor(path: path).execute(SQLStatement(raw: "DELETE FROM item WHERE id < 3"))
    #expect(try window(database, "item").count == 29)
  }

  @Test func theEstimateFollowsTheFile() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "kept")
    let adaptor = try SQLiteAdaptor(path: path)
    let database = try Database(adaptor: adaptor)
    let item = try #require(database.model.entities.first { $0.externalName == "item" })
    #expect(try adaptor.estimatedRowCount(of: item) == 30)
    let answered = adaptor.kept.answers
    #expect(try adaptor.estimatedRowCount(of: item) == 30)
    #expect(adaptor.kept.answers == answered + 1)

    // Another connection's commit shows from this connection's next statement on.
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "INSERT INTO item (id, name) VALUES (40, 'x')"))
    try adaptor.query(SQLStatement(raw: "SELECT 1 FROM item LIMIT 1"), columns: [nil]) { _ in }
    #expect(try adaptor.estimatedRowCount(of: item) == 40)
    // The connection's own write shows at once.
    try adaptor.execute(SQLStatement(raw: "INSERT INTO item (id, name) VALUES (50, 'y')"))
    #expect(try adaptor.estimatedRowCount(of: item) == 50)
  }

  @Test func aPageInOneReadTransactionKeepsItsCount() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "kept")
    let adaptor = try SQLiteAdaptor(path: path)
    let database = try Database(adaptor: adaptor)
    for _ in 0..<2 { _ = try adaptor.reading { try window(database, "item") } }
    #expect(try adaptor.reading { try window(database, "item") } == (30, 1))
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "INSERT INTO item (name) VALUES ('o')"))
    #expect(try adaptor.reading { try window(database, "item") }.count == 31)
  }

  @Test func aViewAndAVirtualTableAreCountedEveryTime() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "kept")
    let adaptor = try SQLiteAdaptor(path: path)
    let database = try Database(adaptor: adaptor)
    for _ in 0..<3 {
      // A view has no estimate: its rows and its count.
      #expect(try window(database, "lucky").statements == 2)
    }
    for _ in 0..<2 { _ = try window(database, "words") }
    for _ in 0..<3 {
      let words = try window(database, "words")
      #expect(words.count == 2)
      #expect(words.statements == 3)
    }
  }
}
