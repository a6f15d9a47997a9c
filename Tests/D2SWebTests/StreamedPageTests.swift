import D2STesting
import D2SWeb
import Foundation
import Testing

/// A list of more rows than a page is sent whole with is streamed as it is rendered: the
/// client gets every row, in HTML and in JSON, in chunks over real HTTP.
@Suite(.serialized) struct StreamedPageTests {
  /// The body of a chunked answer, its chunks joined; nil when it is not well formed.
  static func dechunked(_ data: Data) -> Data? {
    var bytes = [UInt8](data)[...]
    var body = Data()
    for _ in 0..<100_000 {
      guard let end = bytes.firstIndex(of: 13), end + 1 < bytes.endIndex,
        let size = Int(String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self), radix: 16)
      else { return nil }
      let start = end + 2
      guard size > 0 else { return body }
      guard start + size <= bytes.endIndex else { return nil }
      body.append(contentsOf: bytes[start..<start + size])
      bytes = bytes[(start + size + 2)...]
    }
    return nil
  }

  @Test func aLongListIsStreamedInProcessWhole() async throws {
    let app = try WebFixtures.sakila()
    let page = await app.get("/Rental?limit=1000&order=id&format=json")
    #expect(page.status == 200)
    let object = try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any]
    #expect((object?["rows"] as? [Any])?.count == 1000)
    let html = await app.get("/Rental?limit=1000&order=id")
    #expect(html.body.hasSuffix("</html>\n"))
    #expect(html.body.components(separatedBy: "<tr>").count > 1000)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path),
      "build d2s-serve first"),
    .timeLimit(.minutes(1)))
  func aLongListIsStreamedInChunksOverHTTP() throws {
    let (server, base) = try ServeBinaryTests.start(
      [try SakilaSQLite.copy()], folder: try ServeBinaryTests.folder())
    defer { server.stop() }
    let json = try LoopbackHTTP.request("GET", base + "/Rental?limit=1000&order=id&format=json")
    #expect(json.status == 200)
    #expect(json.headers("Transfer-Encoding") == ["chunked"])
    let body = try #require(Self.dechunked(json.body))
    let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
    #expect((object?["rows"] as? [Any])?.count == 1000)
    // A page of the default size is sent whole, with its length.
    let short = try LoopbackHTTP.request("GET", base + "/Rental?order=id")
    #expect(short.headers("Content-Length").count == 1)
    #expect(short.text.hasSuffix("</html>\n"))
  }
}
