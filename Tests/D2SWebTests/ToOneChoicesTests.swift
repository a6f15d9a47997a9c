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

  /// The choices are kept while the database is unchanged, per user as far as a title rule
  /// reads the user: another connection's insert and delete show in the next form, and a
  /// rule for one user titles that user's choices alone.
  @Test func keptChoicesFollowTheDatabaseAndTheUser() async throws {
    let path = try SakilaSQLite.copy()
    try SQLiteAdaptor(path: path).executeScript(
      "UPDATE staff SET password = (SELECT password FROM staff WHERE username = 'Mike')")
    let forMike = try WebFixtures.ruleFile(
      "user.username = 'Mike' AND entity.name = 'Language' => title = 'M'")
    let app = try WebApplication.open(path, rules: [WebEditingTests.demoRules, forMike])
    let (mike, jon) = (WebClient(app), WebClient(app))
    #expect(await mike.login("Mike", "12345").status == 303)
    #expect(await jon.login("Jon", "12345").status == 303)
    func labels(_ client: WebClient) async -> [String] {
      let form = await client.get("/Film/1/-/edit").body
      let select = Page.matches(#"(<select [^>]*name="language".*?</select>)"#, in: form)
      return Page.matches(#"<option value="[^"]+"[^>]*>([^<]*)<"#, in: select.first ?? "")
    }
    let names = ["English", "Italian", "Japanese", "Mandarin", "French", "German"]
    let plans = {
      try await app.pool.withDatabase { app.pageApplication(for: $0).base.planStatistics }
    }
    for _ in 0..<3 {
      #expect(await labels(jon) == names)
      #expect(await labels(mike) == Array(repeating: "M", count: 6))
    }
    let before = try await plans()
    #expect(await labels(jon) == names)
    #expect(try await plans().hits > before.hits, "kept")
    try SQLiteAdaptor(path: path).executeScript(
      "INSERT INTO language VALUES (7, 'Klingon', '2006-02-15 05:02:19')")
    for _ in 0..<3 {
      #expect(await labels(jon) == names + ["Klingon"])
      #expect(await labels(mike) == Array(repeating: "M", count: 7))
    }
    // Without a rule reading the user (whose row is read anew after a change), only the
    // database's version says that the choices changed.
    let plain = try WebApplication.open(path, rules: [WebEditingTests.demoRules])
    let ann = WebClient(plain)
    #expect(await ann.login("Jon", "12345").status == 303)
    for _ in 0..<3 { #expect(await labels(ann) == names + ["Klingon"]) }
    try SQLiteAdaptor(path: path).executeScript("DELETE FROM language WHERE language_id = 7")
    for _ in 0..<3 { #expect(await labels(ann) == names) }
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
