import D2STesting
import Foundation
import Testing

/// The built `d2s-serve` over real HTTP (issue 38): an absolute-form target's authority is
/// checked as `Host` is; long targets and large heads get 414 and 431, and a head the parser
/// refuses 431 or 400, each with the security headers; the request line is logged at the
/// default level, in text and in JSON.
@Suite(.serialized) struct HTTPHeadTests {
  static let binary = ServeBinaryTests.binary

  /// What a raw request gets: the status line and headers, lowercased.
  static func raw(_ base: String, _ request: String) throws -> String {
    let port = Int(base.split(separator: ":").last ?? "") ?? 0
    let socket = try LoopbackSocket(port: port, timeout: 10)
    socket.send(request)
    var answer: [UInt8] = []
    for _ in 0..<100 {
      guard let bytes = socket.receive(), !bytes.isEmpty else { break }
      answer += bytes
    }
    return String(decoding: answer, as: UTF8.self).lowercased()
  }

  static func expectSecurityHeaders(_ head: String, _ label: String) {
    #expect(head.contains("x-frame-options: deny"), "\(label): \(head.prefix(300))")
    #expect(head.contains("content-security-policy:"), "\(label)")
    #expect(head.contains("x-content-type-options: nosniff"), "\(label)")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"))
  func headsAreCheckedAndRefusedWithTheSecurityHeaders() throws {
    let (server, base) = try ServeBinaryTests.start(
      [try SakilaSQLite.copy()], folder: try ServeBinaryTests.folder())
    defer { server.stop() }
    let evil = try Self.raw(
      base,
      "GET http://evil.example/Film/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(evil.hasPrefix("http/1.1 400"), "\(evil.prefix(200))")
    #expect(!evil.contains("academy"))
    let local = try Self.raw(
      base, "GET http://127.0.0.1/Film/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(local.hasPrefix("http/1.1 200"), "\(local.prefix(200))")
    let asterisk = try Self.raw(
      base, "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(asterisk.hasPrefix("http/1.1 400") || asterisk.hasPrefix("http/1.1 405"))

    let long = try LoopbackHTTP.request(
      "GET", base + "/Film?where=" + String(repeating: "x", count: 20_000))
    #expect(long.status == 414)
    Self.expectSecurityHeaders(long.head, "414")
    let large = try LoopbackHTTP.request(
      "GET", base + "/Film/1", headers: [("X-Padding", String(repeating: "y", count: 20_000))])
    #expect(large.status == 431)
    Self.expectSecurityHeaders(large.head, "431")
    let huge = try Self.raw(
      base,
      "GET /Film/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "z", count: 100_000))\r\n\r\n"
    )
    #expect(huge.hasPrefix("http/1.1 431"), "\(huge.prefix(200))")
    Self.expectSecurityHeaders(huge, "431 from the parser")
    // A target the parser refuses is too long a target, not too large a head.
    let hugeTarget = try Self.raw(
      base,
      "GET /Film?where=\(String(repeating: "x", count: 100_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    #expect(hugeTarget.hasPrefix("http/1.1 414"), "\(hugeTarget.prefix(200))")
    Self.expectSecurityHeaders(hugeTarget, "414 from the parser")
    let garbage = try Self.raw(base, "GET /Film/1 HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n")
    #expect(garbage.hasPrefix("http/1.1 400"), "\(garbage.prefix(200))")
    Self.expectSecurityHeaders(garbage, "400 from the parser")
    #expect(try LoopbackHTTP.request("GET", base + "/-/health").text == "ok\n", "still serving")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build d2s-serve first"))
  func theRequestLineIsLoggedAtTheDefaultLevelInTextAndJSON() throws {
    for format in ["text", "json"] {
      let (server, base) = try ServeBinaryTests.start(
        [try SakilaSQLite.copy(), "--log-format", format], folder: try ServeBinaryTests.folder())
      defer { server.stop() }
      _ = try LoopbackHTTP.request("GET", base + "/Film?where=title%20like%20'SECRET*'")
      var line: String?
      for _ in 0..<50 where line == nil {
        line = server.log.split(separator: "\n").first { $0.contains("/Film?where=") }.map(
          String.init)
        if line == nil { Thread.sleep(forTimeInterval: 0.1) }
      }
      let logged = try #require(line, "\(format): \(server.log)")
      #expect(!logged.contains("SECRET"))
      if format == "json" {
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(logged.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "200")
        #expect(object["target"] as? String == "/Film?where=…")
        #expect(object["client"] as? String == "127.0.0.1")
        #expect(object["level"] as? String == "notice")
      } else {
        #expect(logged.contains("GET /Film?where=… 200 "), "\(logged)")
      }
    }
  }
}
