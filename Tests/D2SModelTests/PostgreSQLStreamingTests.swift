import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Synchronization
import Testing

@testable import PostgreSQLAdaptor

/// Long PostgreSQL results are read row by row (single-row mode): every row once and in
/// order, while the server is still sending; a stop or a lost connection ends them cleanly,
/// and the connection goes on working. (Each connection is stopped through its own hook, so
/// that other tests running at the same time are not interrupted.)
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLStreamingTests {
  /// A switch a connection's `isInterrupted` hook reads.
  final class Flag: Sendable {
    private let state = Mutex(false)
    var isOn: Bool {
      get { state.withLock { $0 } }
      set { state.withLock { $0 = newValue } }
    }
  }

  /// Rows 1…count, in order, made as they are sent (a set-returning function in the select
  /// list streams; in FROM it would be computed whole first).
  static func series(_ count: Int, width: Int = 20) -> SQLStatement {
    SQLStatement(raw: "SELECT generate_series(1, $1::int), repeat('x', \(width))", [.int(count)])
  }

  /// A connection to database `postgres` (never to `sakila`, which tests copy as a template).
  func open() throws -> PostgreSQLAdaptor {
    try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
  }

  @Test func aLongResultComesWholeInOrderOnce() throws {
    let adaptor = try open()
    var seen: [Int] = []
    try adaptor.query(Self.series(25_000), columns: [nil, nil]) { row in
      seen.append(row[0].intValue ?? -1)
    }
    #expect(seen == Array(1...25_000))
    #expect(adaptor.connection.activeStream == nil)
  }

  /// The state `pg_stat_activity` shows for backend `pid`, asked on `observer`.
  static func state(of pid: Int, seenBy observer: PostgreSQLAdaptor) throws -> String? {
    try observer.scalar("SELECT state FROM pg_stat_activity WHERE pid = \(pid)")?.stringValue
  }

  @Test func rowsArriveWhileTheServerIsStillRunningTheQuery() throws {
    let adaptor = try open()
    let observer = try open()
    let pid = try #require(try adaptor.scalar("SELECT pg_backend_pid()")?.intValue)
    func state() throws -> String? { try Self.state(of: pid, seenBy: observer) }
    struct Enough: Error {}
    var states: [String?] = []
    // 2,000,000 rows of 100 bytes: far more than libpq or the socket could hold at once.
    #expect(throws: Enough.self) {
      try adaptor.query(Self.series(2_000_000, width: 100), columns: [nil, nil]) { row in
        guard let i = row[0].intValue, i.isMultiple(of: 1000) else { return }
        states.append(try state())
        if i == 3000 { throw Enough() }
      }
    }
    // With the whole result read first, the server would be idle before the first row.
    #expect(states == ["active", "active", "active"])
    #expect(try state() == "idle", "the statement was cancelled, not read to its end")
    #expect(try adaptor.scalar("SELECT 41 + 1") == .int(42))
  }

  @Test func aStopAfterNRowsCancelsTheQueryAndTheConnectionGoesOn() throws {
    let adaptor = try open()
    let stop = Flag()
    adaptor.connection.isInterrupted = { stop.isOn }
    var count = 0
    #expect {
      try adaptor.query(Self.series(10_000_000), columns: [nil, nil]) { _ in
        count += 1
        if count == 1500 { stop.isOn = true }  // Ctrl-C while a row is being rendered
      }
    } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    #expect(count == 1500, "no row after the stop")
    stop.isOn = false
    var seen: [Int] = []
    try adaptor.query(Self.series(3), columns: [nil, nil]) { seen.append($0[0].intValue ?? -1) }
    #expect(seen == [1, 2, 3])
  }

  @Test func statementsFromInsideTheRowCallbackRunAndTheRowsGoOn() throws {
    let adaptor = try open()
    var seen: [Int] = []
    var answers: [DatabaseValue?] = []
    try adaptor.query(Self.series(25_000), columns: [nil, nil]) { row in
      let i = row[0].intValue ?? -1
      seen.append(i)
      if i == 10 || i == 20_000 {  // as a prefetch does, every chunk of rows
        answers.append(
          try adaptor.scalar("SELECT count(*) FROM pg_database WHERE datname = 'postgres'"))
        try adaptor.executeScript("SET application_name = 'nested'")
        // They ran on a second connection: this one still reads its rows from the server.
        #expect(adaptor.connection.activeStream?.isFinished == false)
      }
    }
    #expect(seen == Array(1...25_000))
    #expect(answers == [.int(1), .int(1)])
  }

  @Test func objectRowsWithPrefetchesAreNotHeldWhole() throws {
    let database = try TestDatabase.postgresql.open()
    let adaptor = try #require(database.adaptor as? PostgreSQLAdaptor)
    var ids = Set<Int>()
    var stillStreaming: [Bool] = []
    // Objects come in chunks of 1000, each chunk's customers fetched in one query.
    try database.fetchRows(
      FetchSpecification(entityName: "Rental"), paths: [], objects: true, prefetch: ["customer"]
    ) { _, object in
      ids.insert(object?.value(forKey: "id") as? Int ?? -1)
      if ids.count.isMultiple(of: 5000) {
        stillStreaming.append(adaptor.connection.activeStream?.isFinished == false)
      }
    }
    #expect(ids.count == 16_044 && !ids.contains(-1))
    #expect(stillStreaming == [true, true, true])
  }

  @Test func insideATransactionStatementsFromTheRowCallbackSeeItsWork() throws {
    let adaptor = try open()
    var seen: [Int] = []
    var answers: [DatabaseValue?] = []
    try adaptor.transaction {
      try adaptor.executeScript("CREATE TEMPORARY TABLE mine (x int); INSERT INTO mine VALUES (7)")
      try adaptor.query(Self.series(25_000), columns: [nil, nil]) { row in
        let i = row[0].intValue ?? -1
        seen.append(i)
        if i == 10 {  // only this connection sees the transaction's table
          answers.append(try adaptor.scalar("SELECT x FROM mine"))
        }
      }
    }
    #expect(seen == Array(1...25_000))
    #expect(answers == [.int(7)])
  }

  @Test func aSaveAfterAStreamedAndAStoppedQuery() throws {
    let database = try TestDatabase.postgresql.open()
    let adaptor = try #require(database.adaptor as? PostgreSQLAdaptor)
    var rentals = 0
    try database.fetchRows(FetchSpecification(entityName: "Rental"), paths: []) { _ in
      rentals += 1
    }
    #expect(rentals == 16_044)
    let stop = Flag()
    adaptor.connection.isInterrupted = { stop.isOn }
    #expect(throws: DatabaseError.self) {
      try database.fetchRows(FetchSpecification(entityName: "Rental"), paths: []) { _ in
        stop.isOn = true
      }
    }
    stop.isOn = false
    let language = try #require(try database.fetchObject("Language", primaryKey: [.int(2)]))
    try language.setValue(.string("Klingon"), forAttribute: "name")
    try database.save(language)
    #expect(
      try adaptor.scalar("SELECT trim(name) FROM language WHERE language_id = 2")
        == .string("Klingon"))
  }

  @Test func aConnectionLostAfterRowsFailsClearlyAndIsNeverReadAgain() throws {
    let adaptor = try open()
    let killer = try open()
    let pid = try #require(try adaptor.scalar("SELECT pg_backend_pid()")?.intValue)
    var seen: [Int] = []
    #expect {
      try adaptor.query(Self.series(10_000_000), columns: [nil, nil]) { row in
        seen.append(row[0].intValue ?? -1)
        if seen.count == 100 { _ = try killer.scalar("SELECT pg_terminate_backend(\(pid))") }
      }
    } throws: { error in
      guard let error = error as? DatabaseError else { return false }
      return error.code == .connection
        && error.message.hasPrefix("the connection to PostgreSQL was lost after \(seen.count) rows")
    }
    #expect(seen.count >= 100 && seen.count < 10_000_000)
    #expect(
      seen == Array(1...seen.count), "each row once, in order: never read again from the start")
    #expect(try adaptor.scalar("SELECT 41 + 1") == .int(42), "the next statement connects again")
  }
}
