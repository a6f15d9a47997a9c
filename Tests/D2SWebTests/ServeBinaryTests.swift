import D2STesting
import Foundation
import Testing

/// The built `d2s-serve` as users run it: where it listens, how it stops, what it refuses
/// over real HTTP, and `--watch`.
@Suite(.serialized) struct ServeBinaryTests {
  static let binary = BrowserTests.serveBinary

  /// A server on a free port; its base URL.
  static func start(_ arguments: [String], folder: URL) throws -> (ChildProcess, String) {
    let server = try ChildProcess(binary.path, arguments + ["--port", "0"], folder: folder)
    guard
      let line = try server.waitForLine(prefix: "listening on http://127.0.0.1:", seconds: 20)
    else {
      server.stop()
      throw BrowserError("d2s-serve did not start: \(server.log)")
    }
    return (server, String(line.dropFirst("listening on ".count)))
  }

  static func folder() throws -> URL {
    let folder = try TestFolders.make("d2s-serve")
    return folder
  }

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"),
    arguments: [SIGTERM, SIGINT])
  func stopsCleanlyOnASignal(signal: Int32) throws {
    let (server, base) = try Self.start([try SakilaSQLite.copy()], folder: try Self.folder())
    defer { server.stop() }
    #expect(try LoopbackHTTP.request("GET", base + "/-/health").text == "ok\n")
    kill(server.process.processIdentifier, signal)
    for _ in 0..<100 where server.process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    #expect(!server.process.isRunning, "stopped within 10 s")
    if !server.process.isRunning {
      #expect(server.process.terminationStatus == 0, "\(server.log)")
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"))
  func refusesOtherHostsOverHTTP() throws {
    let (server, base) = try Self.start([try SakilaSQLite.copy()], folder: try Self.folder())
    defer { server.stop() }
    let port = base.split(separator: ":").last.map(String.init) ?? ""
    let evil = try LoopbackHTTP.request("GET", base + "/Film/1", host: "evil.example:\(port)")
    #expect(evil.status == 400)
    #expect(!evil.text.contains("ACADEMY"))
    let local = try LoopbackHTTP.request("GET", base + "/Film/1", host: "localhost:\(port)")
    #expect(local.status == 200)
    #expect(local.head.contains("x-content-type-options: nosniff"))
    let huge = try LoopbackHTTP.request(
      "GET", base + "/Film?where=" + String(repeating: "x", count: 20_000))
    #expect(huge.status >= 400 && huge.status < 500, "a request head over 16 KB is refused")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"))
  func warnsWhenListeningBeyondThisMachine() throws {
    let folder = try Self.folder()
    let server = try ChildProcess(
      Self.binary.path, [try SakilaSQLite.copy(), "--host", "0.0.0.0", "--port", "0"],
      folder: folder)
    defer { server.stop() }
    let line = try server.waitForLine(prefix: "listening on http://0.0.0.0:", seconds: 20)
    #expect(line != nil)
    #expect(server.log.contains("other machines can reach this server"))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"))
  func watchReloadsRulesAllOrNothing() throws {
    let folder = try Self.folder()
    let rules = folder.appendingPathComponent("rules.d2s")
    try "entity.name = 'Film' => displayNameForEntity = 'Movies'\n".write(
      to: rules, atomically: true, encoding: .utf8)
    let (server, base) = try Self.start(
      [try SakilaSQLite.copy(), "--rules", rules.path, "--watch"], folder: folder)
    defer { server.stop() }
    #expect(
      try LoopbackHTTP.request("GET", base + "/Film?limit=1").text.contains("<h1>Movies</h1>"))
    try "entity.name = 'Film' => displayNameForEntity = 'Pictures'\n".write(
      to: rules, atomically: true, encoding: .utf8)
    var reloaded = false
    for _ in 0..<50 where !reloaded {
      Thread.sleep(forTimeInterval: 0.2)
      reloaded = try LoopbackHTTP.request("GET", base + "/Film?limit=1").text.contains(
        "<h1>Pictures</h1>")
    }
    #expect(reloaded, "reloaded within 10 s")
    try "entity.name = 'Film' => displayNameForEntity = \n".write(
      to: rules, atomically: true, encoding: .utf8)
    var refused = false
    for _ in 0..<50 where !refused {
      Thread.sleep(forTimeInterval: 0.2)
      refused = server.log.contains("rules not reloaded")
    }
    #expect(refused, "the broken file is refused, and said so in the log")
    #expect(
      try LoopbackHTTP.request("GET", base + "/Film?limit=1").text.contains("<h1>Pictures</h1>"))
  }
}
