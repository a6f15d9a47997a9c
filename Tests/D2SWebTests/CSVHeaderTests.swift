import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A CSV's `Content-Type` says whether its first line is a header (RFC 4180): a list's is
/// (its columns' names); an object's page is `label,value` records with none. The inspect
/// page's CSV said `header=present`, so a program took its first property for the header.
@Suite struct CSVHeaderTests {
  @Test func onlyAListSaysItHasAHeader() async throws {
    let app = try WebFixtures.sakila()
    for (target, header) in [
      ("/Film?format=csv", "present"), ("/Film/1/actors?format=csv", "present"),
      ("/Film/1?format=csv", "absent"),
    ] {
      for method in ["GET", "HEAD"] {
        let answer = await app.respond(to: WebRequest(method: method, target: target))
        #expect(answer.status == 200, "\(method) \(target)")
        #expect(
          answer.contentType == "text/csv; charset=utf-8; header=\(header)",
          "\(method) \(target): \(answer.contentType)")
      }
    }
  }
}
