import D2SWeb
import Testing

/// The host name a request's `Host` header names: without its port, lowercased, brackets
/// off an IPv6 address; nil for a missing or malformed header.
@Suite struct HostNameTests {
  @Test(arguments: [
    ("127.0.0.1", "127.0.0.1"),
    ("127.0.0.1:8080", "127.0.0.1"),
    ("LocalHost:80", "localhost"),
    ("Example.ORG", "example.org"),
    ("[::1]", "::1"),
    ("[::1]:8080", "::1"),
    ("[FE80::1]:1", "fe80::1"),
    ("exämple.org", "exämple.org"),
    ("ÉXAMPLE.org", "éxample.org"),
  ])
  func aHostNamesItsName(header: String, name: String) {
    #expect(WebRequest(path: "/", host: header).hostName == name)
  }

  @Test(arguments: [
    "", "localhost:", "localhost:80a", "localhost:８０", "[::1", "[::1]x", "[]",
    ":80", "user@localhost", "local/host", "local\\host", "local host", "[::1]:8a",
  ])
  func aMalformedHostNamesNone(header: String) {
    #expect(WebRequest(path: "/", host: header).hostName == nil)
  }

  @Test func noHostNamesNone() {
    #expect(WebRequest(path: "/", host: nil).hostName == nil)
  }
}
