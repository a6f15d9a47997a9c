import D2STesting
import Foundation
import Testing

/// Clients that leave before their answer: their requests do not hold the database. A request
/// is not begun once its client has gone, and a running one's statement stops, so the next
/// client is answered at once, not after the work nobody will read.
@Suite struct DepartedClientTests {
  /// What the test saw: the small page's answer and its time, the next one's status, and how
  /// many requests the log says were never begun.
  struct Seen: Sendable {
    var status = 0
    var seconds = 0.0
    var text = ""
    var again = 0
    var skipped = 0
  }

  /// A table with one row, and a view whose rows are never all counted.
  static let schema = """
    CREATE TABLE kept (id INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO kept VALUES (1, 'answered');
    CREATE VIEW endless AS
      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c;
    """

  @Test(.enabled(if: ClientFaultTests.hasBinary, "build d2s-serve first"), .timeLimit(.minutes(2)))
  func requestsOfClientsThatLeftDoNotHoldTheOnlyConnection() async throws {
    try await Self.check(try TestDatabases.sqliteFile(Self.schema, named: "departed"))
  }

  /// The same over PostgreSQL, whose statement is cancelled on the server.
  @Test(
    .enabled(
      if: ClientFaultTests.hasBinary
        && ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "needs d2s-serve and the test PostgreSQL"), .timeLimit(.minutes(2)))
  func overPostgreSQLToo() async throws {
    try await Self.check(try PostgresSakila.database(from: Self.schema, prefix: "departed"))
  }

  /// Three clients ask `target`'s server (one connection) for the endless list and leave; then
  /// the small page is answered at once.
  static func check(_ path: String) async throws {
    let folder = try ServeBinaryTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // One connection; a statement may run for two minutes, far beyond the wait allowed below.
    let (server, base) = try ServeBinaryTests.start(
      [path, "--connections", "1", "--anonymous-statement-timeout", "120", "--page-cache", "0"],
      folder: folder)
    defer { server.stop() }
    let port = Int(base.split(separator: ":").last ?? "") ?? 0
    // Sockets, pauses and the log are waited for on a thread of this test's own, not on one of
    // the few that Swift's concurrency shares with the other tests.
    let seen = try await offThePool { () throws -> Seen in
      // Three clients ask for the endless list: the first's statement runs on the only
      // connection, the others wait for it. The two waiting leave, then the first.
      var clients: [LoopbackSocket] = []
      for _ in 0..<3 {
        let client = try LoopbackSocket(port: port, timeout: 5)
        #expect(client.send("GET /Endless HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        for _ in 0..<50 where !LoopbackSocket.serverHasRead(port: port, from: client.localPort) {
          Thread.sleep(forTimeInterval: 0.02)
        }
        clients.append(client)
      }
      Thread.sleep(forTimeInterval: 0.3)
      clients.removeLast(2)  // each closes its socket
      // Time for the server to read their ends; the first's statement runs on meanwhile.
      Thread.sleep(forTimeInterval: 1)
      clients.removeAll()
      // Answered at once: before, this waited behind three statements of two minutes each
      // (the request gives up after 30 s, which fails the test).
      var seen = Seen()
      let started = Date()
      let page = try LoopbackHTTP.request("GET", base + "/Kept")
      (seen.status, seen.seconds, seen.text) =
        (page.status, Date().timeIntervalSince(started), page.text)
      // The server goes on serving: the same page again.
      seen.again = try LoopbackHTTP.request("GET", base + "/Kept").status
      // The two that waited were never begun (the first was stopped as it ran).
      for _ in 0..<50 {
        seen.skipped = server.log.components(separatedBy: "503: the client left").count - 1
        if seen.skipped >= 2 { break }
        Thread.sleep(forTimeInterval: 0.1)
      }
      return seen
    }
    #expect(seen.status == 200)
    #expect(seen.text.contains("answered"))
    #expect(seen.seconds < 15, "answered after \(seen.seconds) s")
    #expect(seen.again == 200)
    #expect(seen.skipped == 2, "\(server.log)")
  }
}
