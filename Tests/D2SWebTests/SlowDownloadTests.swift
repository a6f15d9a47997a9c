import D2STesting
import Foundation
import Testing

/// A download read slowly, over real HTTP: the time the server waits for the client to take
/// its chunks is not the statement's, so a 6 MB CSV read over more than the anonymous
/// statement timeout arrives whole; a page that does stop part way ends broken, never as a
/// complete download.
@Suite(.serialized) struct SlowDownloadTests {
  static let rows = 100_000

  @Test(
    .enabled(if: ClientFaultTests.hasBinary, "build d2s-serve first"), .timeLimit(.minutes(3)))
  func aSlowReaderGetsTheWholeDownload() throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE line (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.rows))
        INSERT INTO line SELECT i, 'line ' || i || ' of a download read slowly, long enough to fill' FROM n;
      """, named: "lines")
    let folder = try ServeBinaryTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (server, base) = try ServeBinaryTests.start(
      [path, "--anonymous-statement-timeout", "6", "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    let port = Int(base.split(separator: ":").last ?? "") ?? 0
    let client = try LoopbackSocket(port: port, timeout: 20)
    #expect(client.send("GET /Line?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
    // Only the byte count and the last bytes are kept: the body is 6 MB.
    var total = 0
    var tail: [UInt8] = []
    var sawLastRow = false
    let lastRow = Array("line \(Self.rows) of a download".utf8)
    func take(_ bytes: [UInt8]) {
      total += bytes.count
      let window = tail + bytes.prefix(200)
      tail = Array((tail + bytes).suffix(200))
      if !sawLastRow {
        sawLastRow = Self.contains(window, lastRow) || Self.contains(bytes, lastRow)
      }
    }
    // The first bytes, then a pause longer than the statement timeout: the server's buffers
    // fill and its rendering waits for this client.
    // The timeout leaves room for rendering the rows on two cores shared with other tests;
    // the pause is longer than it, so only the wait for this client can outlast it.
    if let first = client.receive() { take(first) }
    Thread.sleep(forTimeInterval: 8)
    // Bounded, and generous: on two cores shared with the rest of the suite (a browser, MCP
    // clients) rendering 150,000 rows can take a while; what is checked is the whole arriving.
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline, let more = client.receive(upTo: 1 << 20), !more.isEmpty {
      take(more)
      if tail.suffix(5) == Array("0\r\n\r\n".utf8) { break }
    }
    #expect(
      tail.suffix(5) == Array("0\r\n\r\n".utf8),
      "the download ended as a whole one: \(total) bytes; \(server.log.suffix(300))")
    #expect(sawLastRow, "the last row arrived")
    #expect(server.process.isRunning)
  }

  /// Whether `bytes` holds `needle`.
  static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count, let first = needle.first else { return false }
    var index = 0
    while index + needle.count <= bytes.count {
      if bytes[index] == first, Array(bytes[index..<(index + needle.count)]) == needle {
        return true
      }
      index += 1
    }
    return false
  }
}
