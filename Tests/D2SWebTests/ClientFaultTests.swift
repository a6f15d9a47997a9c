import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Clients that misbehave, and a database another program locks: each is answered or dropped
/// within its timeout, and the server keeps serving everyone else.
@Suite(.serialized) struct ClientFaultTests {
  static var hasBinary: Bool {
    FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path)
  }

  @Test(.enabled(if: hasBinary, "build d2s-serve first"), .timeLimit(.minutes(1)))
  func slowGoneAndOversizedClientsLeaveOthersServed() throws {
    let folder = try ServeBinaryTests.folder()
    let (server, base) = try ServeBinaryTests.start(
      [try SakilaSQLite.copy(), "--request-timeout", "1"], folder: folder)
    defer { server.stop() }
    let port = Int(base.split(separator: ":").last ?? "") ?? 0

    // A request head trickled out and then stopped: closed after the request timeout.
    let slow = try LoopbackSocket(port: port, timeout: 10)
    #expect(slow.send("GET /Film/1 HTTP/1.1\r\nHo"))
    let started = Date()
    let answer = slow.receive()
    #expect(answer != nil, "closed (or answered) within 10 s")
    #expect(Date().timeIntervalSince(started) < 9, "closed by the server, before the read's 10 s")
    #expect(try LoopbackHTTP.request("GET", base + "/-/health").status == 200)

    // A client gone after the first bytes of a large page.
    let gone = try LoopbackSocket(port: port, timeout: 10)
    gone.send("GET /Rental?limit=1000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(gone.receive(upTo: 100)?.isEmpty == false)
    _ = consume gone
    #expect(try LoopbackHTTP.request("GET", base + "/Film/1").status == 200)

    // A URL of 100 KB, and a form body over 1 MB: refused, not read to the end.
    let long = try? LoopbackHTTP.request(
      "GET", base + "/Film?where=" + String(repeating: "x", count: 100_000))
    #expect(long.map { (400..<500).contains($0.status) } ?? true, "refused or dropped")
    let body = try? LoopbackHTTP.request(
      "POST", base + "/-/login", body: Data(repeating: UInt8(ascii: "a"), count: 2 << 20),
      contentType: "application/x-www-form-urlencoded")
    #expect(body.map { $0.status == 413 } ?? true, "\(body?.status ?? 0)")
    #expect(try LoopbackHTTP.request("GET", base + "/-/health").status == 200)
    #expect(server.process.isRunning)
  }

  @Test(.timeLimit(.minutes(1)))
  func aSaveWhileAnotherProgramLocksTheDatabaseKeepsTheForm() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Film/1/-/edit")
    // Another program holds the write lock until told to commit (readers go on; a writer waits
    // 5 s). It touches a marker once the lock is its own: on a loaded machine, starting it can
    // take longer than any fixed pause.
    let marker = db.target + ".locked"
    let commands = Pipe()
    let locker = Process()
    locker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    locker.arguments = ["sqlite3", db.target]
    locker.standardInput = commands
    try locker.run()
    defer { if locker.isRunning { locker.terminate() } }  // never a pid already reaped
    commands.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\n.shell touch \"\(marker)\"\n".utf8))
    var polls = 0
    while !FileManager.default.fileExists(atPath: marker) && polls < 200 {
      try await Task.sleep(for: .milliseconds(50))
      polls += 1
    }
    try #require(FileManager.default.fileExists(atPath: marker), "the lock was taken within 10 s")
    let busy = await mike.post(
      "/Film/1/-/edit", WebEditingTests.change(form.body, "replacementCost", to: "$13.99"))
    #expect(busy.status == 503)
    #expect(busy.body.contains("locked by another program"))
    #expect(busy.body.contains(#"value="$13.99""#), "the user's input is kept")
    commands.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
    try commands.fileHandleForWriting.close()
    locker.waitUntilExit()
    let saved = await mike.post(
      "/Film/1/-/edit", WebEditingTests.change(busy.body, "replacementCost", to: "$13.99"))
    #expect(saved.status == 303)
    #expect(try db.stored("SELECT replacement_cost, 0 FROM film WHERE film_id = 1") == "13.99|0")
  }
}
