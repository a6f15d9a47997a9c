import D2SModel
import D2STesting
import Foundation
import Testing

@testable import PostgreSQLAdaptor

/// A page's rows and its count in one round trip (libpq's pipeline mode): both statements run
/// in one implicit transaction, so the second sees what the first saw; a failure of either
/// reads as before and leaves the connection ready; inside a transaction, or before both are
/// prepared, each goes alone.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PipelinedQueryTests {
  /// A connection to a schema of its own in database `postgres`, holding table `t`.
  func open() throws -> (PostgreSQLAdaptor, String) {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    let schema = "pipelined_\(UUID().uuidString.prefix(8).lowercased())"
    try adaptor.executeScript(
      """
      CREATE SCHEMA \(schema);
      CREATE TABLE \(schema).t (id int PRIMARY KEY, name text);
      INSERT INTO \(schema).t VALUES (1, 'one'), (2, 'two'), (3, 'three');
      """)
    return (adaptor, schema)
  }

  func drop(_ adaptor: PostgreSQLAdaptor, _ schema: String) {
    try? adaptor.executeScript("DROP SCHEMA \(schema) CASCADE")
  }

  /// What one page read: its names, its count, and whether both ran in one transaction.
  struct Page: Equatable {
    var names: [String]
    var count: Int
    /// Whether the count came in the rows' round trip.
    var pipelined: Bool
    /// Whether both statements saw one transaction's start time.
    var oneTransaction: Bool
  }

  /// The page's statement: bounded, as a page's window is; `divisor` 0 makes it fail.
  func rows(_ schema: String, divisor: Int = 1) -> SQLStatement {
    var rows = SQLStatement(
      raw: """
        SELECT name, transaction_timestamp()::text, 1 / $1::int FROM \(schema).t ORDER BY id
        LIMIT 10
        """, [.int(divisor)])
    rows.rowBound = 10
    return rows
  }

  /// The page's count; `divisor` 0 makes it fail.
  func count(_ schema: String, divisor: Int = 1) -> SQLStatement {
    SQLStatement(
      raw: "SELECT count(*) / $1::int, transaction_timestamp()::text FROM \(schema).t",
      [.int(divisor)])
  }

  /// The page statement and the count, the way a list sends them: together, or the count
  /// alone when it did not go with the rows.
  func page(
    _ adaptor: PostgreSQLAdaptor, _ schema: String, divisor: Int = 1, countDivisor: Int = 1
  ) throws -> Page {
    let count = count(schema, divisor: countDivisor)
    var names: [String] = []
    var stamp = ""
    let along = try adaptor.query(
      rows(schema, divisor: divisor), columns: [nil, nil, nil], followedBy: count
    ) { row in
      names.append(row[0].stringValue ?? "?")
      stamp = row[1].stringValue ?? "?"
    }
    var counted = along?.first
    if counted == nil {
      try adaptor.query(count, columns: [nil, nil]) { counted = $0 }
    }
    return Page(
      names: names, count: counted?[0].intValue ?? -1, pipelined: along != nil,
      oneTransaction: counted?[1].stringValue == stamp)
  }

  /// Two pages, alone each: from the next on, both statements are prepared.
  func prepare(_ adaptor: PostgreSQLAdaptor, _ schema: String) throws {
    for _ in 0..<2 { _ = try page(adaptor, schema) }
  }

  /// Expects `body` to fail with the server's division-by-zero error.
  func expectDivisionByZero(_ body: () throws -> Page) {
    #expect {
      try body()
    } throws: { error in
      (error as? DatabaseError)?.message.contains("division by zero") == true
    }
  }

  /// The three rows, counted in one round trip.
  let pipelined = Page(
    names: ["one", "two", "three"], count: 3, pipelined: true, oneTransaction: true)

  @Test func theCountGoesWithTheRowsOnceBothArePrepared() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    // Sent once, then prepared: each alone, in a transaction of its own.
    var alone = pipelined
    alone.pipelined = false
    alone.oneTransaction = false
    #expect(try page(adaptor, schema) == alone)
    #expect(try page(adaptor, schema) == alone)
    // Both prepared: one round trip, one transaction.
    #expect(try page(adaptor, schema) == pipelined)
    // The count is read anew each time, never kept.
    _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO \(schema).t VALUES (4, 'four')"))
    var more = pipelined
    more.names.append("four")
    more.count = 4
    #expect(try page(adaptor, schema) == more)
  }

  @Test func aFailingFirstStatementFailsAsBeforeAndTheConnectionGoesOn() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    try prepare(adaptor, schema)
    expectDivisionByZero { try page(adaptor, schema, divisor: 0) }
    #expect(try page(adaptor, schema) == pipelined)
  }

  @Test func aFailingCountLeavesTheRowsAndIsSentAgainAlone() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    try prepare(adaptor, schema)
    // The rows come; the count failed in the pipeline, so none is returned.
    var names: [String] = []
    let along = try adaptor.query(
      rows(schema), columns: [nil, nil, nil], followedBy: count(schema, divisor: 0)
    ) { names.append($0[0].stringValue ?? "?") }
    #expect(names == pipelined.names)
    #expect(along == nil)
    // Sent again alone, it fails with the server's message.
    expectDivisionByZero { try page(adaptor, schema, countDivisor: 0) }
    #expect(try page(adaptor, schema) == pipelined)
  }

  @Test func anErrorFromTheRowsCallerLeavesTheConnectionReady() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    try prepare(adaptor, schema)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      _ = try adaptor.query(rows(schema), columns: [nil, nil, nil], followedBy: count(schema)) {
        _ in throw Stop()
      }
    }
    #expect(try page(adaptor, schema) == pipelined)
  }

  @Test func insideATransactionEachGoesAlone() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    try prepare(adaptor, schema)
    let inside = try adaptor.transaction { try page(adaptor, schema) }
    #expect(!inside.pipelined)
    #expect(inside.count == 3)
    #expect(try page(adaptor, schema).pipelined)
  }

  @Test func aConnectionEndedBetweenPagesIsMadeAgainAndPipelinesOnceMore() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    try prepare(adaptor, schema)
    #expect(try page(adaptor, schema) == pipelined)
    let pid = try backend(adaptor)
    let killer = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    try killer.query(
      SQLStatement(raw: "SELECT pg_terminate_backend($1::int)", [.int(pid)]), columns: [nil]
    ) { _ in }
    // The next page connects again; its statements are prepared anew before they pipeline.
    var alone = pipelined
    alone.pipelined = false
    alone.oneTransaction = false
    var pages: [Page] = []
    for _ in 0..<4 { pages.append(try page(adaptor, schema)) }
    #expect(pages == [alone, alone, pipelined, pipelined])
    #expect(try backend(adaptor) != pid)
  }

  /// The server process of `adaptor`'s connection.
  func backend(_ adaptor: PostgreSQLAdaptor) throws -> Int {
    var pid = 0
    try adaptor.query(SQLStatement(raw: "SELECT pg_backend_pid()"), columns: [nil]) {
      pid = $0[0].intValue ?? 0
    }
    return pid
  }

  @Test func aConnectionLostInsideThePipelineKeepsTheRowsAndTheNextPageWorks() throws {
    let (adaptor, schema) = try open()
    defer { drop(adaptor, schema) }
    // A count that ends its own connection when asked to: prepared while it does not, each
    // sent alone when it did not go with the rows, as a list does.
    func ending(_ end: Bool) -> SQLStatement {
      SQLStatement(
        raw: "SELECT CASE WHEN $1::boolean THEN pg_terminate_backend(pg_backend_pid()) END",
        [.bool(end)])
    }
    for _ in 0..<2 {
      let along = try adaptor.query(
        rows(schema), columns: [nil, nil, nil], followedBy: ending(false)
      ) { _ in }
      if along == nil { try adaptor.query(ending(false), columns: [nil]) { _ in } }
    }
    let before = adaptor.pipelineCount
    let pid = try backend(adaptor)
    var names: [String] = []
    let along = try adaptor.query(rows(schema), columns: [nil, nil, nil], followedBy: ending(true))
    { names.append($0[0].stringValue ?? "?") }
    #expect(adaptor.pipelineCount == before + 1)
    #expect(names == pipelined.names)
    #expect(along == nil)
    // Made again before the next statement, which is answered.
    #expect(try page(adaptor, schema).count == 3)
    #expect(try backend(adaptor) != pid)
  }
}
