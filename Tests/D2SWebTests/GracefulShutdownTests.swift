import D2STesting
import Dispatch
import Foundation
import SQLiteAdaptor
import Synchronization
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
  func aRequestInFlightAtSIGTERMCompletesAndTheServerExitsZero() throws {
    let database = try SakilaSQLite.copy()
    let folder = try ServeBinaryTests.folder()
    let rules = folder.appendingPathComponent("watched.d2s")
    try "*true* => displayNameForEntity = entity.name\n".write(
      to: rules, atomically: true, encoding: .utf8)
    let (server, base) = try ServeBinaryTests.start(
      [database, "--rules", rules.path, "--watch", "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    // Another connection holds the database's write lock, so the page's read waits for it
    // (SQLite's busy timeout is 5 s): the request is in flight while the signal arrives. The
    // request runs on a thread of its own, so that a busy test run cannot delay the steps.
    let blocker = try SQLiteAdaptor(path: database)
    try blocker.executeScript("BEGIN EXCLUSIVE")
    let answer = Mutex<Result<HTTPAnswer, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      answer.withLock { $0 = Result { try LoopbackHTTP.request("GET", base + "/Film/1") } }
      done.signal()
    }
    Thread.sleep(forTimeInterval: 0.5)
    kill(server.process.processIdentifier, SIGTERM)
    Thread.sleep(forTimeInterval: 0.5)
    #expect(server.process.isRunning, "the server waits for the request in flight")
    try blocker.executeScript("COMMIT")
    #expect(done.wait(timeout: .now() + 20) == .success, "answered")
    let page = try #require(try answer.withLock { $0 }?.get())
    #expect(page.status == 200)
    #expect(page.text.contains("ACADEMY DINOSAUR"))
    for _ in 0..<100 where server.process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    #expect(!server.process.isRunning, "stopped within 10 s of the answer")
    if !server.process.isRunning {
      #expect(server.process.terminationStatus == 0, "\(server.log)")
    }
  }
}
