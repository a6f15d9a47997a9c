import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// An edit form lists a destination's choices once and shows them under each to-one into it.
@Suite struct ToOneChoicesTests {
  @Test func twoToOnesIntoOneEntityListTheSameChoicesEachWithItsOwnValue() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let form = await mike.get("/Film/1/-/edit").body
    let selects = Page.matches(
      #"(<select [^>]*name="(?:language|originalLanguage)".*?</select>)"#, in: form)
    #expect(selects.count == 2)
    func options(_ select: String) -> [String] {
      Page.matches(#"<option value="([^"]*)""#, in: select).filter { !$0.isEmpty }
    }
    #expect(selects.count == 2 && options(selects[0]) == options(selects[1]))
    #expect(selects.first.map(options)?.count == 6)
    let language = selects.first { $0.contains("name=\"language\"") } ?? ""
    let original = selects.first { $0.contains("name=\"originalLanguage\"") } ?? ""
    #expect(language.contains(#"<option value="1" selected>"#))
    #expect(!original.contains("selected>English"))
  }
}
