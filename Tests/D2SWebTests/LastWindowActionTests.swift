import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A list's last window offers no `next` action in JSON (the web's, the REPL's, agents'), as
/// its HTML shows no Next link; a window with rows after it does. Before, every paged list
/// offered `next`, the empty one too.
@Suite struct LastWindowActionTests {
  @Test func theLastWindowHasNoNext() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), configuration: .init(pageCacheBytes: 0))
    for (target, next) in [
      ("/Language?format=json", false), ("/Language?format=json&limit=2", true),
      ("/Film?q=zzzz&format=json", false), ("/Language?format=json&limit=2&offset=4", false),
    ] {
      let page = await app.get(target)
      #expect(page.status == 200)
      #expect(
        page.body.contains(#"{"action":"next"}"#) == next, "\(target): \(page.body.suffix(120))")
    }
  }
}
