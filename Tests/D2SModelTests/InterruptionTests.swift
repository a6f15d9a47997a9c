import D2SModel
import D2STesting
import Foundation
import Testing

@testable import PostgreSQLAdaptor
@testable import SQLiteAdaptor

/// Ctrl-C's request reaches a statement that is still running: it fails with
/// `.interrupted`, soon, and the connection goes on working. (The flag itself is global and
/// the REPL's; here each connection is asked through its own hook, so that other tests
/// running at the same time are not interrupted. The REPL's path is tested in a terminal.)
@Suite struct InterruptionTests {
  @Test func sqliteStopsALongStatement() throws {
    let adaptor = try SQLiteAdaptor(path: ":memory:")
    let slow = SQLStatement(
      raw:
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000000) SELECT count(*) FROM n"
    )
    adaptor.connection.isInterrupted = { true }
    let start = Date()
    #expect { try adaptor.query(slow, columns: [nil]) { _ in } } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    #expect(Date().timeIntervalSince(start) < 2)

    adaptor.connection.isInterrupted = { false }
    let value = try adaptor.scalar("SELECT 41 + 1")
    #expect(value == .int(42))
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "set D2S_TEST_POSTGRES_URL (make test does)"))
  func postgresqlCancelsAWaitingStatement() throws {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.copy())
    adaptor.connection.isInterrupted = { true }
    let start = Date()
    #expect {
      try adaptor.query(SQLStatement(raw: "SELECT pg_sleep(20)"), columns: [nil]) { _ in }
    } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    #expect(Date().timeIntervalSince(start) < 5)

    adaptor.connection.isInterrupted = { false }
    let value = try adaptor.scalar("SELECT count(*) FROM language")
    #expect(value == .int(6))
  }

  /// An interrupted transaction rolls back (the rollback itself is not interrupted) and the
  /// connection is usable at once.
  func interruptedTransactionRollsBack(
    _ adaptor: any DatabaseAdaptor, slow: String, setIsInterrupted: (Bool) -> Void
  ) throws {
    #expect {
      try adaptor.transaction {
        _ = try adaptor.execute(
          SQLStatement(raw: "UPDATE language SET name = 'Klingon' WHERE language_id = 1"))
        // Ctrl-C while the slow statement runs; it stays set for the rollback.
        setIsInterrupted(true)
        try adaptor.query(SQLStatement(raw: slow), columns: [nil]) { _ in }
      }
    } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    setIsInterrupted(false)
    var name = try adaptor.scalar("SELECT trim(name) FROM language WHERE language_id = 1")
    #expect(name == .string("English"))
    try adaptor.transaction {
      _ = try adaptor.execute(
        SQLStatement(raw: "UPDATE language SET name = 'Inglés' WHERE language_id = 1"))
    }
    name = try adaptor.scalar("SELECT trim(name) FROM language WHERE language_id = 1")
    #expect(name == .string("Inglés"))
  }

  @Test func sqliteRollsBackAnInterruptedTransaction() throws {
    let adaptor = try SQLiteAdaptor(path: try SakilaSQLite.copy())
    try interruptedTransactionRollsBack(
      adaptor,
      slow:
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000000) SELECT count(*) FROM n"
    ) { value in adaptor.connection.isInterrupted = { value } }
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "set D2S_TEST_POSTGRES_URL (make test does)"))
  func postgresqlRollsBackAnInterruptedTransaction() throws {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.copy())
    try interruptedTransactionRollsBack(adaptor, slow: "SELECT pg_sleep(20)") { value in
      adaptor.connection.isInterrupted = { value }
    }
  }
}
