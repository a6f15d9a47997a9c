import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A form whose body is not percent-encoded UTF-8 is a bad request (400) that says so; it was
/// "the form has expired" (403), which sent the user to load a form that was fine.
@Suite struct MalformedFormTests {
  @Test func aBodyThatDoesNotDecodeIsA400() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules])
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    for target in ["/Film/1/-/links/actors", "/Film/1/-/edit", "/-/login", "/-/tokens"] {
      var request = WebRequest(
        method: "POST", target: target, cookies: mike.cookies, body: "add=%FF&_csrf=x")
      request.clientAddress = "127.0.0.1"
      let answer = await app.respond(to: request)
      #expect(answer.status == 400, "\(target): \(answer.status)")
      #expect(answer.body.contains("percent-encoded UTF-8"), "\(target)")
    }
    // A body that decodes, without the session's token, is still refused as before.
    let stale = await mike.post("/Film/1/-/edit", [("_csrf", "x"), ("length", "5")])
    #expect(stale.status == 403)
  }
}
