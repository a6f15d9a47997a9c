import D2SModel
import D2STesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PostgreSQLAdaptor

/// Over PostgreSQL, a plain table's count behind a page's rows is kept while the server's
/// snapshot stays the same, and made anew after any commit: another connection's, this
/// connection's own. A view, a foreign table, a table with row security or with inheriting
/// tables is counted every time.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLKeptCountTests {
  static let schema = """
    CREATE TABLE item (id serial PRIMARY KEY, name text);
    INSERT INTO item (name) SELECT 'n' || i FROM generate_series(1, 30) AS i;
    CREATE SEQUENCE tick;
    CREATE VIEW ticking AS
      SELECT g AS id FROM generate_series(1, CAST(nextval('tick') AS int)) AS g;
    CREATE TABLE guarded (id int PRIMARY KEY);
    ALTER TABLE guarded ENABLE ROW LEVEL SECURITY;
    CREATE TABLE parent (id int PRIMARY KEY);
    CREATE TABLE child () INHERITS (parent);
    CREATE EXTENSION file_fdw;
    CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
    CREATE FOREIGN TABLE outside (line text) SERVER files OPTIONS (program 'echo a');
    """

  /// The rows of a five-row window of `table` and its count in one round trip, as a list
  /// page reads them (its estimate first): the count, or nil when it was not sent with them.
  func windowCount(_ database: Database, _ table: String) throws -> Int? {
    let entity = try #require(database.model.entities.first { $0.externalName == table })
    _ = try database.adaptor.estimatedRowCount(of: entity)
    return try database.fetchRows(
      FetchSpecification(entityName: entity.name, limit: 5), paths: [],
      counting: FetchSpecification(entityName: entity.name)
    ) { _ in }
  }

  /// Reads pages until the rows and the count go in one round trip (both prepared, from the
  /// third page on), at most five, counting alone when they do not (as a list page does);
  /// the count sent with the rows.
  func pipelinedCount(_ database: Database, _ table: String) throws -> Int? {
    let entity = try #require(database.model.entities.first { $0.externalName == table })
    for _ in 0..<5 {
      if let count = try windowCount(database, table) { return count }
      _ = try database.count(FetchSpecification(entityName: entity.name))
    }
    return nil
  }

  /// Whether a window of `table` (each giving `expected`) is answered from its kept count
  /// (see ``answersFromKept(_:read:)``).
  func isKept(
    _ database: Database, _ adaptor: PostgreSQLAdaptor, _ table: String, _ expected: Int
  ) throws -> Bool {
    try answersFromKept(
      { adaptor.keptCountAnswers.withLock { $0 } },
      read: { () throws in #expect(try windowCount(database, table) == expected) })
  }

  @Test func aTableCountIsKeptUntilACommit() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "kept")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    #expect(try pipelinedCount(database, "item") == 30)
    #expect(try isKept(database, adaptor, "item", 30), "kept while nothing commits")

    // Another connection's commit: counted anew, then kept again.
    try PostgreSQLAdaptor(url: url).execute(
      SQLStatement(raw: "INSERT INTO item (name) VALUES ('o')"))
    let kept = adaptor.keptCountAnswers.withLock { $0 }
    #expect(try windowCount(database, "item") == 31)
    #expect(adaptor.keptCountAnswers.withLock { $0 } == kept, "counted anew")
    #expect(try isKept(database, adaptor, "item", 31))

    // This connection's own write, outside and inside a transaction.
    try adaptor.execute(SQLStatement(raw: "DELETE FROM item WHERE name = 'o'"))
    #expect(try pipelinedCount(database, "item") == 30)
    try adaptor.transaction {
      try adaptor.execute(SQLStatement(raw: "INSERT INTO item (name) VALUES ('t')"))
      // Inside a transaction the count is not sent with the rows; were it, it would be 31.
      #expect(try windowCount(database, "item") ?? 31 == 31)
    }
    #expect(try pipelinedCount(database, "item") == 31)
    // A rollback leaves the count as it was.
    struct Undo: Error {}
    _ = try? adaptor.transaction {
      try adaptor.execute(SQLStatement(raw: "INSERT INTO item (name) VALUES ('u')"))
      throw Undo()
    }
    #expect(try pipelinedCount(database, "item") == 31)
  }

  /// A page read while another statement's rows stream on the connection (a query per row)
  /// goes to the helper connection: nothing is prepared on the busy one.
  @Test func aPageReadInsideAnotherStatementsRows() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "kept")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    // Twice: the rows' statement is prepared on the connection, the count's not yet.
    for _ in 0..<2 { _ = try windowCount(database, "item") }
    // On a thread of its own, waited for at most 30 seconds: a connection confused by a
    // statement sent in the middle of another's rows would wait for ever.
    let done = DispatchSemaphore(value: 0)
    let totals = Mutex<[Int?]>([])
    DispatchQueue.global().async {
      defer { done.signal() }
      // More rows than arrive at once, so that the statement is still being read.
      let rows = SQLStatement(raw: "SELECT g FROM generate_series(1, 200000) AS g")
      var read = 0
      try? adaptor.query(rows, columns: [nil]) { _ in
        read += 1
        guard read <= 5 else { return }
        let total = try windowCount(database, "item")
        totals.withLock { $0.append(total) }
      }
    }
    #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
    #expect(totals.withLock { $0.count } == 5)
    #expect(totals.withLock { $0.allSatisfy { $0 == nil || $0 == 30 } })
    #expect(try windowCount(database, "item") == 30)
  }

  @Test func aViewIsCountedEveryTime() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "kept")
    let database = try Database(adaptor: try PostgreSQLAdaptor(url: url))
    // Each statement reading the view takes the sequence's next value, without a commit.
    let first = try #require(try pipelinedCount(database, "ticking"))
    let second = try #require(try windowCount(database, "ticking"))
    #expect(second > first)
  }

  @Test func onlyAPlainTableKeepsItsCount() throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "kept")
    let adaptor = try PostgreSQLAdaptor(url: url)
    let database = try Database(adaptor: adaptor)
    var keeps: [String: Bool] = [:]
    for table in ["item", "guarded", "parent", "child", "outside"] {
      let entity = try #require(database.model.entities.first { $0.externalName == table })
      _ = try adaptor.estimatedRowCount(of: entity)
      let name = adaptor.dialect.quote(table: entity.externalName, schema: entity.schema)
      keeps[table] = adaptor.estimates.withLock { $0[name]?.keepsCount }
    }
    #expect(
      keeps == ["item": true, "guarded": false, "parent": false, "child": true, "outside": false])
  }
}
