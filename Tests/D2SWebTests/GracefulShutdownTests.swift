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
    // request is sent and answered on a thread of its own, so that a busy test run cannot
    // delay the steps; the signal goes once the server has read the request (the kernel's
    // queue for it is empty), however long a loaded machine takes to get there.
    let blocker = try SQLiteAdaptor(path: database)
    try blocker.executeScript("BEGIN EXCLUSIVE")
    let port = Int(base.split(separator: ":").last ?? "") ?? 0
    let client = try LoopbackSocket(port: port, timeout: 30)
    let clientPort = client.localPort
    let answer = Mutex<[UInt8]>([])
    let sent = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      client.send("GET /Film/1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
      sent.signal()
      for _ in 0..<1_000 {
        guard let bytes = client.receive(), !bytes.isEmpty else { break }
        answer.withLock { $0 += bytes }
      }
      done.signal()
    }
    #expect(sent.wait(timeout: .now() + 20) == .success, "sent")
    var polls = 0
    while !LoopbackSocket.serverHasRead(port: port, from: clientPort), polls < 200 {
      Thread.sleep(forTimeInterval: 0.05)
      polls += 1
    }
    #expect(LoopbackSocket.serverHasRead(port: port, from: clientPort), "read within 10 s")
    kill(server.process.processIdentifier, SIGTERM)
    Thread.sleep(forTimeInterval: 0.5)
    #expect(server.process.isRunning, "the server waits for the request in flight")
    try blocker.executeScript("COMMIT")
    #expect(done.wait(timeout: .now() + 20) == .success, "answered")
    let page = String(decoding: answer.withLock { $0 }, as: UTF8.self)
    #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(200))")
    #expect(page.contains("ACADEMY DINOSAUR"))
    for _ in 0..<100 where server.process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    #expect(!server.process.isRunning, "stopped within 10 s of the answer")
    if !server.process.isRunning {
      #expect(server.process.terminationStatus == 0, "\(server.log)")
    }
  }
}
