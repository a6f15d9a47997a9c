@preconcurrency import CLibEdit
import CLibEditLoader
import CLibPQ
import CSQLite
import Foundation
import Testing

/// The system-library targets build, link and work: what later adaptors and the REPL stand on.
@Suite struct SystemLibraryTests {
  @Test func sqliteRunsAQuery() throws {
    var db: OpaquePointer?
    #expect(
      sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
    )
    defer { sqlite3_close(db) }
    var statement: OpaquePointer?
    #expect(
      sqlite3_prepare_v2(db, "SELECT 6 * 7, sqlite_version()", -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    #expect(sqlite3_step(statement) == SQLITE_ROW)
    #expect(sqlite3_column_int64(statement, 0) == 42)
    let version = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
    #expect(version.hasPrefix("3."))
  }

  @Test func libeditKeepsHistory() throws {
    guard let history = d2s_history_init() else {
      Issue.record("history_init failed")
      return
    }
    defer { history_end(history) }
    #expect(d2s_history_set_size(history, 10) >= 0)
    #expect(d2s_history_enter(history, "list Film") >= 0)
  }

  /// The REPL's libedit, loaded on first use: its history functions reach libedit.
  @Test func libeditLoadsOnFirstUse() throws {
    #expect(d2s_libedit_load() == nil)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-libedit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("history").path
    #expect(d2s_add_history("list Film where rating = 'G'") == 0)
    #expect(d2s_write_history(path) == 0)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.contains("rating"))
  }

  static var postgresURL: String? { ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] }

  @Test(.enabled(if: postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
  func postgresServesTheSakilaSample() throws {
    let connection = PQconnectdb(Self.postgresURL ?? "")
    defer { PQfinish(connection) }
    #expect(PQstatus(connection) == CONNECTION_OK, "\(String(cString: PQerrorMessage(connection)))")
    let result = PQexec(connection, "SELECT count(*) FROM rental")
    defer { PQclear(result) }
    #expect(PQresultStatus(result) == PGRES_TUPLES_OK)
    #expect(String(cString: PQgetvalue(result, 0, 0)) == "16044")
  }
}
