import Foundation

/// The database servers the REPL tests run on: SQLite always, PostgreSQL when
/// `D2S_TEST_POSTGRES_URL` names the test server (`make test` starts one).
enum TestServer: String, CaseIterable, Sendable {
  case sqlite, postgresql

  /// The servers this run has.
  static var available: [TestServer] {
    ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] == nil
      ? [.sqlite] : [.sqlite, .postgresql]
  }
}
