import D2STesting
import Foundation
import SQLiteAdaptor
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

  /// A select lists up to 100 choices; with one more, the field links to the choose page.
  @Test(arguments: [(100, true), (101, false)])
  func aSelectListsAHundredChoicesAtMost(languages: Int, listed: Bool) async throws {
    let (app, path) = try WebEditingTests.demo()
    let more = (7...languages).map {
      "INSERT INTO language VALUES (\($0), 'L\($0)', '2006-02-15 05:02:19');"
    }
    try SQLiteAdaptor(path: path).executeScript(more.joined(separator: "\n"))
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let form = await mike.get("/Film/1/-/edit").body
    let select = Page.matches(#"(<select [^>]*name="language".*?</select>)"#, in: form).first
    #expect((select != nil) == listed)
    #expect(
      select.map { Page.matches(#"<option value="([^"]+)""#, in: $0).count } == (listed ? 100 : nil)
    )
    if !listed { #expect(form.contains(#"href="/Film/1/-/choose/language""#)) }
  }
}
