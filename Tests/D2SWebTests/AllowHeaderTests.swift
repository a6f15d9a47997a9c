import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A 405 names the methods the path takes (RFC 9110): a page GET and HEAD, a form also POST,
/// `/-/rules` and `/-/mcp` POST alone. Every path's 405 said `GET, HEAD, POST`, and
/// `GET /-/rules` was a 404.
@Suite struct AllowHeaderTests {
  @Test(arguments: [
    ("PUT", "/Film", "GET, HEAD"), ("DELETE", "/Film/1", "GET, HEAD"),
    ("POST", "/Film", "GET, HEAD"), ("PUT", "/Film/1/-/edit", "GET, HEAD, POST"),
    ("PUT", "/Film/-/new", "GET, HEAD, POST"), ("PUT", "/-/login", "GET, HEAD, POST"),
    ("GET", "/-/rules", "POST"), ("PUT", "/-/rules", "POST"), ("GET", "/-/mcp", "POST"),
    ("PATCH", "/Film/1/-/links/actors", "GET, HEAD, POST"),
  ])
  func theAllowHeaderNamesThePathsMethods(method: String, target: String, allow: String)
    async throws
  {
    let app = try WebFixtures.sakila()
    let answer = await app.respond(to: WebRequest(method: method, target: target))
    #expect(answer.status == 405, "\(method) \(target): \(answer.status)")
    #expect(answer.header("Allow") == allow, "\(method) \(target): \(answer.header("Allow") ?? "")")
  }
}
