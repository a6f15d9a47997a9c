import D2SApplication
import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL
@testable import D2SWeb

/// "Why is this field here?": `?explain=1` puts a "why?" link beside every label for a user a
/// rule lets see explanations, and `/-/why` shows the rules behind a field or a page: the
/// winner with its file and line, the candidates that lost with their first false condition.
/// Nobody else gets a link or an explanation; the JSON is the REPL's.
@Suite struct ExplainPageTests {
  static let explaining = "user.username = 'Mike' => mayExplain = true"

  /// The demo on a Sakila copy with Mike allowed to see explanations; the rule files.
  static func app() throws -> (WebApplication, String, [String]) {
    let path = try SakilaSQLite.copy()
    let rules = [WebEditingTests.demoRules, try WebFixtures.ruleFile(explaining)]
    return (try WebApplication.open(path, rules: rules), path, rules)
  }

  static let why = "/-/why?" + HTML.query([("page", "/Film/1"), ("property", "rentalDuration")])

  @Test func aUserAllowedSeesWhyAFieldIsAsItIs() async throws {
    let (app, _, rules) = try Self.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let page = await mike.get("/Film/1?explain=1")
    #expect(page.status == 200)
    #expect(page.body.contains(#"<a class="why" href="\#(HTML.escape(Self.why))""#))
    #expect(page.body.contains(#"<h1>ACADEMY DINOSAUR <a class="why""#), "the page's own")
    #expect(!(await mike.get("/Film/1")).body.contains(#"class="why""#), "only when asked")
    #expect((await mike.get("/Film?explain=1")).body.contains(#"property=rentalDuration"#))
    let form = await mike.get("/Film/1/-/edit?explain=1")
    let fieldWhy = "/-/why?" + HTML.query([("page", "/Film/1/-/edit"), ("property", "length")])
    #expect(form.body.contains(HTML.escape(fieldWhy)), "an edit form's labels too")
    let editWhy = await mike.get(fieldWhy + "&key=component&format=json")
    #expect(editWhy.body.contains(#""value":"'EditNumber'""#), "explained as the form is made")

    let why = await mike.get(Self.why)
    #expect(why.status == 200)
    #expect(why.body.contains("<h1>Why is Rental Duration on ACADEMY DINOSAUR as it is?</h1>"))
    // The formatter's rule, with its file and line; the component's builtin winner.
    #expect(
      why.body.contains(
        "formatter = &#39;daysDuration&#39;</code>")
        || why.body.contains("formatter = 'daysDuration'</code>"))
    #expect(why.body.contains("<code>\(HTML.escape(rules[0])):10</code>"))
    #expect(why.body.contains("builtin rule 28: attribute.valueType in"))
    // A candidate that lost, struck through, with its first false condition and the value.
    #expect(why.body.contains("<tr class=\"lost\">"))
    #expect(
      why.body.contains("(here attribute.valueType = &#39;Int&#39;)")
        || why.body.contains("(here attribute.valueType = 'Int')"))
    #expect(why.body.contains("<details><summary>Look-ups</summary>"))
    #expect((await mike.get("/-/why?page=%2FFilm%2F1")).status == 200, "the page's own")
    #expect((await mike.get("/-/why?page=%2FFilm%2F1&property=nope")).status == 404)
  }

  @Test func aRefusalLinksToThePermissionsExplanation() async throws {
    let (app, path, rules) = try Self.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let refused = await mike.get("/Actor/1/-/edit")
    #expect(refused.status == 403)
    let why = "/-/why?" + HTML.query([("page", "/Actor/1"), ("key", "isObjectEditable")])
    #expect(refused.body.contains(#"<a class="why" href="\#(HTML.escape(why))">Why not?</a>"#))
    let explained = await mike.get(why)
    #expect(explained.status == 200)
    #expect(explained.body.contains("<code>\(HTML.escape(rules[0])):17</code>"), "the demo's rule")
    try LinkEditingTests.givePasswordToJon(TestBackend(kind: .sqlite, target: path))
    let jon = WebClient(app)
    await jon.login("Jon", "12345")
    let deleted = await jon.get("/Actor/1/-/delete")
    #expect(!deleted.body.contains("Why not?"))
  }

  @Test func nobodyElseGetsALinkOrAnExplanation() async throws {
    let (app, path, _) = try Self.app()
    let anonymous = WebClient(app)
    #expect(!(await anonymous.get("/Film/1?explain=1")).body.contains(#"class="why""#))
    #expect((await anonymous.get(Self.why)).status == 403)
    try LinkEditingTests.givePasswordToJon(TestBackend(kind: .sqlite, target: path))
    let jon = WebClient(app)
    await jon.login("Jon", "12345")
    #expect((await jon.get("/Film/1")).body.contains("Jon"), "logged in")
    #expect(!(await jon.get("/Film/1?explain=1")).body.contains(#"class="why""#))
    #expect((await jon.get(Self.why)).status == 403)
  }

  @Test func theJSONIsTheREPLsForTheSamePageAndKey() async throws {
    let (app, path, rules) = try Self.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    // d2s-serve's own rule, as on the server: the user's rules keep their numbers.
    let session = try REPLSession(plugins: [ServerRules()], width: nil)
    _ = try session.run(.open(path))
    for file in rules { _ = try session.run(.load(file)) }
    _ = try session.run("login Mike 12345")
    _ = try session.run("platform = 'html'")
    _ = try session.run("inspect Film 1")
    for key in WebApplication.fieldKeys {
      let web = await mike.get(Self.why + "&key=\(key)&format=json")
      #expect(web.status == 200)
      let repl = try session.jsonOutput(
        of: .explain(key, property: "rentalDuration"), text: "")
      let same = zip(web.body, repl + "\n").prefix { $0 == $1 }.count
      #expect(
        web.body == repl + "\n",
        "\(key) differs at \(same): web \(web.body.dropFirst(same).prefix(160)) REPL \(repl.dropFirst(same).prefix(160))"
      )
    }
  }

  /// The user's rules have the numbers the REPL gives them: d2s-serve's own rule is
  /// ``ServerRules``' (`server:1`), not the user's `rule 1`. Before, every label on the web
  /// was one higher than the REPL's, and `why-not` of a web label asked about another rule.
  @Test func theUsersRulesKeepTheirNumbers() async throws {
    let (app, path, rules) = try Self.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(path))
    for file in rules { _ = try session.run(.load(file)) }
    _ = try session.run("inspect Film 1")
    let repl = try session.run("explain formatter for rentalDuration")
    let web = await mike.get(Self.why + "&key=formatter&format=json")
    let winner = try #require(
      Page.matches(#""winner":"(rule [0-9]+):"#, in: web.body).first, "\(web.body.prefix(300))")
    #expect(repl.contains("winner: \(winner):"), "web \(winner); REPL \(repl)")
  }
}
