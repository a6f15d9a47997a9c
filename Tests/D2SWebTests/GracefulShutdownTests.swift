import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGTERM while a request is in flight: the server (its pool and rule watcher services
/// beside it) answers that request, 200, then exits 0.
@Suite(.serialized) struct GracefulShutdownTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path),
      "build d2s-serve first"),
    .timeLimit(.minutes(1)))
  func aRequestInFlightAtSIGTERMCompletesAndTheServerExitsZero() async throws {
    let database = try SakilaSQLite.copy()
    let folder = try ServeBinaryTests.folder()
    let rules = folder.appendingPathComponent("watched.d2s")
    try "*true* => displayNameForEntity = entity.name\n".write(
      to: rules, atomically: true, encoding: .utf8)
    let (server, base) = try ServeBinaryTests.start(
      [database, "--rules", rules.path, "--watch", "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    // Another connection holds the database's write lock, so the page's read waits for it
    // (SQLite's busy timeout is 5 s): the request is in flight while the signal arrives.
    let blocker = try SQLiteAdaptor(path: database)
    try blocker.executeScript("BEGIN EXCLUSIVE")
    let inFlight = Task.detached { try LoopbackHTTP.request("GET", base + "/Film/1") }
    try await Task.sleep(for: .milliseconds(500))
    kill(server.process.processIdentifier, SIGTERM)
    try await Task.sleep(for: .milliseconds(500))
    #expect(server.process.isRunning, "the server waits for the request in flight")
    try blocker.executeScript("COMMIT")
    let answer = try await inFlight.value
    #expect(answer.status == 200)
    #expect(answer.text.contains("ACADEMY DINOSAUR"))
    for _ in 0..<100 where server.process.isRunning {
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(!server.process.isRunning, "stopped within 10 s of the answer")
    if !server.process.isRunning {
      #expect(server.process.terminationStatus == 0, "\(server.log)")
    }
  }
}
