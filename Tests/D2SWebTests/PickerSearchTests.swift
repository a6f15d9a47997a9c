import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// The choose page's and the links page's search match what is typed as typed, as the list's
/// search box does: `*`, `?` and `\` are the characters themselves (before, they were
/// wildcards, and a logged-in editor's pattern escaped the list's bound on wildcards).
@Suite struct PickerSearchTests {
  /// The rows the links page offers to add (with a button or, locked, without).
  static func offered(_ html: String) -> [String] {
    guard let list = html.components(separatedBy: "<ul class=\"candidates\">").dropFirst().first
    else { return [] }
    let items = list.components(separatedBy: "</ul>")[0]
    return Page.matches(#"<li>([^<]*)"#, in: items)
  }

  @Test func wildcardsTypedAreCharacters() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    // No actor's name holds `*` or `?`: nothing is offered.
    for typed in ["*", "?", "*?*?*?*?*?*?*?*?"] {
      let query = [("q", typed)].map { "\($0.0)=\($0.1.webQuery)" }.joined()
      let links = await mike.get("/Film/1/-/links/actors?" + query)
      #expect(links.status == 200)
      #expect(Self.offered(links.body).isEmpty, "links, \(typed)")
      let choose = await mike.get("/Film/1/-/choose/language?" + query)
      #expect(choose.status == 200)
      #expect(!choose.body.contains("English"), "choose, \(typed)")
    }
    // A plain word still narrows them.
    let links = await mike.get("/Film/1/-/links/actors?q=penel")
    #expect(Self.offered(links.body).contains("PENELOPE PINKETT"))
    let choose = await mike.get("/Film/1/-/choose/language?q=engl")
    #expect(choose.body.contains("English"))
  }
}
