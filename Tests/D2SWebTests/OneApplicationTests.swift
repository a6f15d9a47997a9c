import D2SREPL
import D2STesting
import D2SWeb
import Foundation
import Testing

/// One application, two front ends: under the demo rules the web's JSON of a page is the
/// REPL's JSON of the same page, member for member, on SQLite and PostgreSQL.
@Suite struct OneApplicationTests {
  /// The six pages: a URL, the REPL commands that show the same page, and whether Mike is
  /// logged in.
  static let pages: [(target: String, commands: [String], loggedIn: Bool)] = [
    ("/", ["entities"], false),
    ("/Film", ["list Film"], false),
    (
      "/Film?where=" + "rating = 'PG' and length > 100".webQuery + "&order=length%20desc",
      ["list Film where rating = 'PG' and length > 100 order by length desc"], false
    ),
    ("/Film/1", ["inspect Film 1"], false),
    ("/Film/1/actors", ["inspect Film 1", "follow actors"], false),
    ("/Film/1/-/edit", ["login Mike 12345", "edit Film 1"], true),
  ]

  static func object(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
  }

  static func canonical(_ object: Any) -> String {
    let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  @Test(arguments: ShopFixture.kinds)
  func theWebsJSONIsTheREPLsForSixPages(kind: ShopFixture.Kind) async throws {
    let budget = try WebFixtures.unhurriedFacets()
    let (app, backend) = try WebEditingTests.demo(kind, extraRules: [budget])
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let anonymous = WebClient(app)
    for page in Self.pages {
      let client = page.loggedIn ? mike : anonymous
      let separator = page.target.contains("?") ? "&" : "?"
      let web = await client.get(page.target + separator + "format=json")
      #expect(web.status == 200, "\(page.target)")
      #expect(web.contentType == "application/json; charset=utf-8", "\(page.target)")
      // The REPL as a script runs it: the web's default window of 50 rows.
      let session = try REPLSession(width: nil, defaultLimit: 50)
      _ = try session.run(.open(backend.target))
      _ = try session.run(.load(WebEditingTests.demoRules))
      _ = try session.run(.load(budget))
      _ = try session.run(.set(key: "platform", value: .string("json")))
      var repl = ""
      for command in page.commands { repl = try session.run(command) }
      let webObject = try Self.object(web.body)
      let replObject = try Self.object(repl)
      let task = page.commands.last?.split(separator: " ").first.map(String.init) ?? ""
      let expected = ["entities": "query", "follow": "list", "edit": "edit"][task] ?? task
      #expect(webObject["task"] as? String == expected, "\(kind) \(page.target)")
      #expect(
        Set(webObject.keys) == Set(replObject.keys), "\(kind) \(page.target): the same members")
      for (key, value) in replObject {
        #expect(
          Self.canonical(webObject[key] ?? NSNull()) == Self.canonical(value),
          "\(kind) \(page.target): member \(key)")
      }
    }
  }

  @Test(arguments: [
    ("/Film/1", "inspect Film 1"), ("/", "entities"), ("/Film/1/language", "inspect Language 1"),
  ])
  func theREPLsHTMLIsTheServersPage(target: String, command: String) async throws {
    let (app, path) = try WebEditingTests.demo()
    let web = await app.get(target)
    #expect(web.status == 200)
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(path))
    _ = try session.run(.load(WebEditingTests.demoRules))
    _ = try session.run(.set(key: "platform", value: .string("html")))
    let repl = try session.run(command)
    #expect(repl.hasPrefix("<!DOCTYPE html>"))
    #expect(repl == web.body || repl + "\n" == web.body, "\(command) prints \(target)")
  }

  @Test func aFilmShowsItsLanguageAndFollowsEveryRelationshipOnTheWeb() async throws {
    let (app, _) = try WebEditingTests.demo()
    let page = await app.get("/Film/1")
    #expect(page.status == 200)
    #expect(page.body.contains(">English</a>"), "the language, linked to its page")
    for relationship in ["actors", "categories", "inventories"] {
      #expect(Page.links(page.body).contains("/Film/1/\(relationship)"), "\(relationship)")
    }
    #expect(await app.get("/Language/1").status == 200, "reachable, though not on the home page")
  }
}
