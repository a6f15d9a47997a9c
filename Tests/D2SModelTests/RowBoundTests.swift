import D2SModel
import D2STesting
import EnvKeys
import Testing

@testable import PostgreSQLAdaptor

/// A statement knows how many rows its outermost `LIMIT` allows (`SQLStatement.rowBound`);
/// PostgreSQL reads such a result (a page's window) whole, one `PGresult` instead of one per
/// row, and longer or unbounded results row by row as before.
@Suite struct RowBoundTests {
  func statement(_ select: SQLSelect) -> SQLStatement {
    var serializer = SQLSerializer(dialect: PostgreSQLAdaptor.sqlDialect)
    serializer.write(select)
    return serializer.statement
  }

  func select(limit: DatabaseValue? = nil, from source: SQLSource? = nil) -> SQLSelect {
    var select = SQLSelect([.star], from: source ?? SQLSource(.table("t", schema: nil)))
    select.limit = limit
    return select
  }

  @Test func theOutermostLimitIsTheBound() {
    #expect(statement(select(limit: .int(51))).rowBound == 51)
    #expect(statement(select()).rowBound == nil)
    #expect(statement(select(limit: .null)).rowBound == nil)
    #expect(statement(select(limit: .int(-1))).rowBound == nil)
    // A subquery's limit bounds the subquery, not the statement.
    let inner = SQLSource(.subquery(select(limit: .int(5))), alias: "s")
    #expect(statement(select(from: inner)).rowBound == nil)
    #expect(statement(select(limit: .int(7), from: inner)).rowBound == 7)
    #expect(SQLStatement(raw: "SELECT 1 LIMIT 1").rowBound == nil)
    // An offset moves the window, whose size is still the limit.
    var window = select(limit: .int(20))
    window.offset = .int(40)
    #expect(statement(window).rowBound == 20)
    // A limit in a condition's subquery bounds nothing.
    var filtered = select()
    filtered.conditions = [.exists(select(limit: .int(1)))]
    #expect(statement(filtered).rowBound == nil)
    // One serializer writing a second statement after the first: only the first is bounded.
    var serializer = SQLSerializer(dialect: PostgreSQLAdaptor.sqlDialect)
    serializer.write(select())
    serializer.write(select(limit: .int(3)))
    #expect(serializer.statement.rowBound == nil)
  }

  /// While a bounded result is handed out, the connection is already free: a statement from
  /// the row callback runs on it. A longer one is still streaming then, and lends a second
  /// connection (its rows are never all held).
  @Test(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
  func aBoundedResultComesWholeAndALongerOneRowByRow() throws {
    for (bound, whole) in [
      (20, true), (PostgreSQLConnection.wholeResultRows, true), (5_000, false),
    ] {
      let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
      var statement = SQLStatement(
        raw: "SELECT generate_series(1, $1::int) LIMIT $2", [.int(bound + 10), .int(bound)])
      statement.rowBound = bound
      var seen: [Int] = []
      var nested: [Int] = []
      try adaptor.query(statement, columns: [nil]) { row in
        seen.append(row[0].intValue ?? -1)
        if seen.count == 1 {
          try adaptor.query(SQLStatement(raw: "SELECT 42"), columns: [nil]) {
            nested.append($0[0].intValue ?? -1)
          }
        }
      }
      #expect(seen == Array(1...bound), "\(bound)")
      #expect(nested == [42], "\(bound)")
      #expect((adaptor.connection.helper == nil) == whole, "\(bound)")
    }
  }

  /// Inside a transaction a bounded result comes whole as well: the callback's statement
  /// runs on the same connection and sees the transaction's own rows.
  @Test(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
  func aBoundedResultInsideATransactionSeesItsWork() throws {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    try adaptor.executeScript("CREATE TEMP TABLE seen (n int)")
    var statement = SQLStatement(raw: "SELECT generate_series(1, 5) LIMIT $1", [.int(5)])
    statement.rowBound = 5
    var counts: [Int] = []
    try adaptor.transaction {
      try adaptor.query(statement, columns: [nil]) { row in
        _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO seen VALUES ($1)", [row[0]]))
        try adaptor.query(SQLStatement(raw: "SELECT count(*)::int FROM seen"), columns: [nil]) {
          counts.append($0[0].intValue ?? -1)
        }
      }
    }
    #expect(counts == [1, 2, 3, 4, 5])
    #expect(adaptor.connection.helper == nil)
  }
}
