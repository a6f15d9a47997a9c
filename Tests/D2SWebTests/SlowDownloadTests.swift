import D2STesting
import Foundation
import Testing

/// A download read slowly, over real HTTP: the time the server waits for the client to take
/// its chunks is not the statement's, so a 6 MB CSV read over more than the anonymous
/// statement timeout arrives whole; a page that does stop part way ends broken, never as a
/// complete download.
@Suite(.serialized) struct SlowDownloadTests {
  static let rows = 100_000

  /// What the slow reader got: whether its request went out, the bytes read, the last 200 of
  /// them, and whether the last row was among them.
  struct Download: Sendable {
    var sent = false
    var total = 0
    var tail: [UInt8] = []
    var sawLastRow = false

    /// Whether the chunked body ended with its last, empty chunk.
    var ended: Bool { tail.suffix(5) == Array("0\r\n\r\n".utf8) }

    mutating func take(_ bytes: [UInt8]) {
      total += bytes.count
      let window = tail + bytes.prefix(200)
      tail = Array((tail + bytes).suffix(200))
      let lastRow = Array("line \(SlowDownloadTests.rows) of a download".utf8)
      if !sawLastRow {
        sawLastRow =
          SlowDownloadTests.contains(window, lastRow) || SlowDownloadTests.contains(bytes, lastRow)
      }
    }
  }

  @Test(
    .enabled(if: ClientFaultTests.hasBinary, "build d2s-serve first"), .timeLimit(.minutes(3)))
  func aSlowReaderGetsTheWholeDownload() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE line (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.rows))
        INSERT INTO line SELECT i, 'line ' || i || ' of a download read slowly, long enough to fill' FROM n;
      """, named: "lines")
    let folder = try ServeBinaryTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (server, base) = try ServeBinaryTests.start(
      [path, "--anonymous-statement-timeout", "15", "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    let port = Int(base.split(separator: ":").last ?? "") ?? 0
    // The reader blocks (a pause, socket reads) on a thread of its own, not on one of the few
    // that Swift's concurrency shares with the other tests.
    let download = try await offThePool { () throws -> Download in
      var download = Download()
      let client = try LoopbackSocket(port: port, timeout: 20)
      download.sent = client.send("GET /Line?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      // The first bytes, then a pause longer than the statement timeout: the server's buffers
      // fill and its rendering waits for this client. The timeout leaves room for rendering
      // the rows on two cores shared with other tests; the pause is longer than it, so only
      // the wait for this client can outlast it.
      if let first = client.receive() { download.take(first) }
      Thread.sleep(forTimeInterval: 17)
      // Bounded, and generous: on two cores shared with the rest of the suite (a browser, MCP
      // clients) rendering the rows can take a while; what is checked is the whole arriving.
      let deadline = Date().addingTimeInterval(120)
      while Date() < deadline, let more = client.receive(upTo: 1 << 20), !more.isEmpty {
        download.take(more)
        if download.ended { break }
      }
      return download
    }
    #expect(download.sent)
    #expect(
      download.ended,
      "the download ended as a whole one: \(download.total) bytes; \(server.log.suffix(300))")
    #expect(download.sawLastRow, "the last row arrived")
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
