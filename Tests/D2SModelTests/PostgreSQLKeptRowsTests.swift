import D2SModel
import D2STesting
import Foundation
import Testing

@testable import PostgreSQLAdaptor

/// Over PostgreSQL, a list page's rows are kept while the server's snapshot stays the same,
/// and read anew after any commit: another connection's, this connection's own. A window
/// emptied by a commit shows no rows, never the ones kept; a statement reading more than its
/// table (a join), a view, or rows of more bytes than a connection keeps are read every time.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLKeptRowsTests {
  static let schema = """
    CREATE TABLE kind (id int PRIMARY KEY, title text);
    INSERT INTO kind VALUES (1, 'first'), (2, 'second');
    CREATE TABLE item (id serial PRIMARY KEY, name text, kind_id int REFERENCES kind);
    INSERT INTO item (name, kind_id) SELECT 'n' || i, 1 + i % 2 FROM generate_series(1, 30) AS i;
    CREATE TABLE wide (id int PRIMARY KEY, body text);
    INSERT INTO wide SELECT i, repeat(chr(96 + i), 1000000) FROM generate_series(1, 5) AS i;
    CREATE SEQUENCE tick;
    CREATE VIEW ticking AS
      SELECT g AS id, CAST(nextval('tick') AS int) AS tick FROM generate_series(1, 10) AS g;
    """

  /// A five-row window of `table` from `offset` and its count, as a list page reads them (its
  /// estimate first), with the `paths` joined: the rows' values as text.
  func window(
    _ database: Database, _ table: String, offset: Int = 0, paths: [PropertyPath] = []
  ) throws -> [[String]] {
    let entity = try #require(database.model.entities.first { $0.externalName == table })
    _ = try database.adaptor.estimatedRowCount(of: entity)
    var rows: [[String]] = []
    let order = entity.primaryKeyAttributes.map { SortOrdering($0.name) }
    try database.fetchRows(
      FetchSpecification(entityName: entity.name, sortOrderings: order, limit: 5, offset: offset),
      paths: paths, counting: FetchSpecification(entityName: entity.name)
    ) { values in
      rows.append(
        values.map { value in if case .string(let text) = value { text } else { "\(value)" } })
    }
    return rows
  }

  /// Whether a window of `table` (each giving `expected`) is answered from the rows kept
  /// (see ``answersFromKept(_:read:)``).
  func isKept(
    _ database: Database, _ adaptor: PostgreSQLAdaptor, _ table: String, _ expected: [[String]],
    offset: Int = 0, paths: [PropertyPath] = []
  ) throws -> Bool {
    try answersFromKept(
      { adaptor.keptRowsAnswers.withLock { $0 } },
      read: { () throws in
        #expect(try window(database, table, offset: offset, paths: paths) == expected)
      })
  }

  @Test func aWindowsRowsAreKeptUntilACommit() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "keptrows")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    let first = try window(database, "item")
    #expect(first.map { $0[1] } == ["n1", "n2", "n3", "n4", "n5"])
    #expect(try isKept(database, adaptor, "item", first), "kept while nothing commits")

    // Another connection's commit changes a row of the window: read anew, the new value.
    let other = try PostgreSQLAdaptor(url: url)
    try other.execute(SQLStatement(raw: "UPDATE item SET name = 'changed' WHERE id = 3"))
    var changed = first
    changed[2][1] = "changed"
    #expect(try window(database, "item") == changed)
    #expect(try isKept(database, adaptor, "item", changed))

    // This connection's own write, outside and inside a transaction.
    try adaptor.execute(SQLStatement(raw: "UPDATE item SET name = 'own' WHERE id = 3"))
    changed[2][1] = "own"
    #expect(try window(database, "item") == changed)
    try adaptor.transaction {
      try adaptor.execute(SQLStatement(raw: "UPDATE item SET name = 'inside' WHERE id = 3"))
      changed[2][1] = "inside"
      #expect(try window(database, "item") == changed)
    }
    #expect(try window(database, "item") == changed)
    #expect(try isKept(database, adaptor, "item", changed))
  }

  @Test func aWindowEmptiedByACommitShowsNoRows() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "keptrows")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    let last = try window(database, "item", offset: 25)
    #expect(last.count == 5)
    #expect(try isKept(database, adaptor, "item", last, offset: 25))
    try PostgreSQLAdaptor(url: url).execute(SQLStatement(raw: "DELETE FROM item WHERE id > 20"))
    #expect(try window(database, "item", offset: 25) == [])
    #expect(try window(database, "item", offset: 25) == [])
    #expect(try window(database, "item", offset: 15).count == 5)
  }

  @Test func aJoinOrAViewIsReadEveryTime() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "keptrows")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    let item = try #require(database.model.entities.first { $0.externalName == "item" })
    let toKind = try #require(item.relationships.first { !$0.isToMany })
    let path = try PropertyPath(toKind.name + ".title", from: item, in: database.model)
    for _ in 0..<5 { _ = try window(database, "item", paths: [path]) }
    _ = try window(database, "ticking")
    let ticks = try (0..<4).map { _ in try window(database, "ticking") }
    #expect(Set(ticks.map { $0[0][1] }).count == 4, "each read takes the sequence's next value")
    #expect(adaptor.keptRowsAnswers.withLock { $0 } == 0)
    // Another connection's change to the joined table shows at once.
    try PostgreSQLAdaptor(url: url).execute(
      SQLStatement(raw: "UPDATE kind SET title = 'other' WHERE id = 2"))
    #expect(try window(database, "item", paths: [path])[0].last == "other")
  }

  @Test func rowsOfMoreThanTheBoundAreReadEveryTime() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "keptrows")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    // Five rows of a million characters each: more than a connection keeps.
    for _ in 0..<5 {
      let rows = try window(database, "wide")
      #expect(rows.map { $0[1].utf8.count } == Array(repeating: 1_000_000, count: 5))
      #expect(rows.map { $0[1].prefix(1) } == ["a", "b", "c", "d", "e"])
    }
    #expect(adaptor.keptRowsAnswers.withLock { $0 } == 0)
    #expect(adaptor.keptRows.withLock { $0.isEmpty })
    // A page of the item table is kept beside it.
    let items = try window(database, "item")
    #expect(try isKept(database, adaptor, "item", items))
  }

  @Test func whichStatementsMayKeepTheirRows() {
    func keeps(_ sql: String, bound: Int? = 51) -> Bool {
      var statement = SQLStatement(raw: sql)
      statement.rowBound = bound
      return PostgreSQLAdaptor.keepsRows(of: statement)
    }
    #expect(keeps("SELECT t0.\"id\" FROM \"public\".\"item\" t0 ORDER BY t0.\"id\" LIMIT 51"))
    #expect(keeps("SELECT t0.\"a FROM b\" FROM \"item\" t0 LIMIT 51"))
    #expect(!keeps("SELECT t0.\"id\" FROM \"item\" t0", bound: nil), "unbounded")
    #expect(!keeps("SELECT t0.\"id\" FROM \"item\" t0 LEFT JOIN \"kind\" t1 ON x LIMIT 51"))
    #expect(
      !keeps(
        "SELECT t0.\"id\" FROM \"item\" t0 WHERE EXISTS (SELECT 1 FROM \"kind\" t1) LIMIT 51"))
    #expect(!keeps("SELECT t0.\"id\" FROM \"item\" t0 WHERE t0.\"n\" = 'x' LIMIT 51"))
    #expect(!keeps("SELECT t0.\"a \" FROM \"item\" t0 LIMIT 51\""), "an open quote")
    #expect(!keeps("WITH x AS (SELECT 1) SELECT * FROM x LIMIT 5"))
  }
}
