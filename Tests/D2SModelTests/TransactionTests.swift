import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Testing

@testable import PostgreSQLAdaptor
@testable import SQLiteAdaptor

/// Transactions after failures: a failed COMMIT leaves the adaptor usable, and COPY (which
/// the asynchronous PostgreSQL path must not wait on forever) is refused cleanly.
@Suite struct TransactionTests {
  @Test func aFailedCommitLeavesTheAdaptorUsable() throws {
    let adaptor = try SQLiteAdaptor(path: try SakilaSQLite.copy())
    // A deferred foreign key is checked at COMMIT, which then fails.
    #expect(throws: DatabaseError.self) {
      try adaptor.transaction {
        _ = try adaptor.execute(SQLStatement(raw: "PRAGMA defer_foreign_keys = ON"))
        _ = try adaptor.execute(
          SQLStatement(raw: "INSERT INTO film_actor (actor_id, film_id) VALUES (9999, 1)"))
      }
    }
    try adaptor.transaction {
      _ = try adaptor.execute(
        SQLStatement(raw: "UPDATE language SET name = 'Inglés' WHERE language_id = 1"))
    }
    let count = try adaptor.scalar("SELECT count(*) FROM film_actor WHERE actor_id = 9999")
    #expect(count == .int(0))
  }

  /// A failed inner transaction (a savepoint) is undone alone; the outer one commits.
  func nestedTransactionsRollBackAlone(_ adaptor: some DatabaseAdaptor) throws {
    _ = try adaptor.execute(SQLStatement(raw: "CREATE TEMPORARY TABLE nest_check (n integer)"))
    try adaptor.transaction {
      _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO nest_check VALUES (1)"))
      #expect(throws: DatabaseError.self) {
        try adaptor.transaction {
          _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO nest_check VALUES (2)"))
          try adaptor.transaction {
            _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO nest_check VALUES (3)"))
          }
          throw DatabaseError(.invalidValue, "the inner work fails")
        }
      }
      _ = try adaptor.execute(SQLStatement(raw: "INSERT INTO nest_check VALUES (4)"))
    }
    var kept: [DatabaseValue] = []
    try adaptor.query(SQLStatement(raw: "SELECT n FROM nest_check ORDER BY n"), columns: [nil]) {
      kept.append($0[0])
    }
    #expect(kept == [.int(1), .int(4)])
  }

  @Test func sqliteNestsTransactionsAsSavepoints() throws {
    try nestedTransactionsRollBackAlone(try SQLiteAdaptor(path: try SakilaSQLite.copy()))
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "set D2S_TEST_POSTGRES_URL (make test does)"))
  func postgresqlNestsTransactionsAsSavepoints() throws {
    try nestedTransactionsRollBackAlone(
      try PostgreSQLAdaptor(url: try PostgresSakila.copy()))
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "set D2S_TEST_POSTGRES_URL (make test does)"))
  func postgresqlRefusesCopy() throws {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.copy())
    for sql in ["COPY language TO STDOUT", "COPY language FROM STDIN"] {
      #expect { try adaptor.executeScript(sql) } throws: {
        ($0 as? DatabaseError)?.code == .unsupported
      }
    }
    let count = try adaptor.scalar("SELECT count(*) FROM language")
    #expect(count == .int(6))
  }
}
