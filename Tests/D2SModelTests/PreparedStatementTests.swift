import D2SModel
import D2STesting
import Foundation
import Testing

@testable import PostgreSQLAdaptor

/// Queries are prepared once per connection and sent again by name: the server parses and
/// plans a page's statements once. Writes are sent unnamed; an error reads as before; a
/// statement whose plan went stale is prepared anew.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PreparedStatementTests {
  /// A connection to a schema of its own in database `postgres`, holding table `t`.
  func open() throws -> (PostgreSQLAdaptor, String) {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    let schema = "prepared_\(UUID().uuidString.prefix(8).lowercased())"
    try adaptor.executeScript(
      """
      CREATE SCHEMA \(schema);
      CREATE TABLE \(schema).t (id int PRIMARY KEY, name text);
      INSERT INTO \(schema).t VALUES (1, 'one'), (2, 'two');
      """)
    return (adaptor, schema)
  }

  func drop(_ adaptor: PostgreSQLAdaptor, _ schema: String) {
    try? adaptor.executeScript("DROP SCHEMA \(schema) CASCADE")
  }

  /// How many statements this session has prepared whose text is `sql`.
  func prepared(_ adaptor: PostgreSQLAdaptor, _ sql: String) throws -> Int {
    var count = -1
    try adaptor.query(
      SQLStatement(
        raw: "SELECT count(*)::int FROM pg_prepared_statements WHERE statement = $1",
        [.string(sql)]), columns: [nil]
    ) { count = $0[0].intValue ?? -1 }
    return count
  }

  func names(_ adaptor: PostgreSQLAdaptor, _ schema: String, over id: Int) throws -> [String] {
    var names: [String] = []
    try adaptor.query(
      SQLStatement(raw: "SELECT name FROM \(schema).t WHERE id > $1 ORDER BY id", [.int(id)]),
      columns: [nil]
    ) { names.append($0[0].stringValue ?? "?") }
    return names
  }

  @Test func aQueryIsPreparedOnceAndAnsweredEachTime() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    let sql = "SELECT name FROM \(schema).t WHERE id > $1 ORDER BY id"
    #expect(try prepared(adaptor, sql) == 0)
    #expect(try names(adaptor, schema, over: 0) == ["one", "two"])
    // Sent once: not prepared (a script's one statement costs no extra round trip).
    #expect(try prepared(adaptor, sql) == 0)
    #expect(try names(adaptor, schema, over: 1) == ["two"])
    #expect(try names(adaptor, schema, over: 2) == [])
    #expect(try prepared(adaptor, sql) == 1)
    // A write is sent as it comes.
    let insert = "INSERT INTO \(schema).t VALUES ($1, $2)"
    _ = try adaptor.execute(SQLStatement(raw: insert, [.int(3), .string("three")]))
    #expect(try prepared(adaptor, insert) == 0)
    #expect(try names(adaptor, schema, over: 2) == ["three"])
  }

  @Test func aFailingQueryFailsAsBeforeAndTheConnectionGoesOn() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    let wrong = SQLStatement(raw: "SELECT nosuch FROM \(schema).t WHERE id = $1", [.int(1)])
    for _ in 0..<2 {
      #expect {
        try adaptor.query(wrong, columns: [nil]) { _ in }
      } throws: { error in
        (error as? DatabaseError)?.message.contains("nosuch") == true
      }
    }
    #expect(try names(adaptor, schema, over: 1) == ["two"])
  }

  @Test func aStalePlanIsSentAgainUnnamedOutsideATransaction() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    let star = SQLStatement(raw: "SELECT * FROM \(schema).t WHERE id = $1", [.int(1)])
    var rows = 0
    for _ in 0..<2 { try adaptor.query(star, columns: [nil, nil]) { _ in rows += 1 } }
    #expect(try prepared(adaptor, star.sql) == 1)
    // The result's type changes: the server refuses the prepared plan; the statement is sent
    // again unnamed, once, and the caller sees its rows.
    try adaptor.executeScript("ALTER TABLE \(schema).t ALTER COLUMN name TYPE varchar(20)")
    try adaptor.query(star, columns: [nil, nil]) { _ in rows += 1 }
    var names: [String] = []
    try adaptor.connection.stream(star) { row, _ in names.append(row.text(1) ?? "?") }
    #expect(rows == 3 && names == ["one"])
  }
}
