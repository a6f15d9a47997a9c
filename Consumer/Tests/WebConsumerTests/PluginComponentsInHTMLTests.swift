import D2STesting
import D2SWeb
import Foundation
import RatingComponents
import Testing

/// A plugin's components are written once: the stars of `RatingComponents` show in a web
/// page exactly as in the terminal, and a rule can still pick an HTML-only component.
@Suite struct PluginComponentsInHTMLTests {
  @Test func theStarsShowInHTMLWithNoHTMLCodeInThePlugin() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), plugins: [RatingComponentsPlugin()])
    let film = await app.respond(to: WebRequest(target: "/Film/1"))
    #expect(film.status == 200)
    // ACADEMY DINOSAUR's rental duration is 6: five full stars.
    #expect(film.body.contains("<td>★★★★★</td>"))
    let list = await app.respond(to: WebRequest(target: "/Film?order=title&limit=2"))
    #expect(list.body.contains("<td>★★★★★</td>"))
    #expect(list.body.contains("<td>★★★☆☆</td>"), "ACE GOLDFINGER: 3")
  }

  /// The README's example under the demo rules: the demo's Film list has a column for the
  /// rental duration, and no demo rule picks its component, so the plugin's stars show there.
  @Test func theStarsShowInTheDemosFilmList() async throws {
    let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("data/demo.d2s").path
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [demo], plugins: [RatingComponentsPlugin()])
    let list = await app.respond(to: WebRequest(target: "/Film?order=title&limit=2"))
    #expect(list.body.contains("Rental Duration"))
    #expect(list.body.contains("★★★★★"), "ACADEMY DINOSAUR: 6 days")
  }

  @Test func aRuleCanPickAComponentForTheWebOnly() async throws {
    let folder = try TestFolders.make("d2s-consumer")
    let rules = folder.appendingPathComponent("web.d2s")
    try """
    platform = 'html' AND entity.name = 'Film' AND propertyKey = 'length' => component = 'DisplayStars'

    """.write(to: rules, atomically: true, encoding: .utf8)
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [rules.path], plugins: [RatingComponentsPlugin()])
    let html = await app.respond(to: WebRequest(target: "/Film/1"))
    #expect(html.body.contains("<tr><th scope=\"row\">Length</th><td>★★★★★</td></tr>"))
    let json = await app.respond(to: WebRequest(target: "/Film/1", accept: "application/json"))
    #expect(json.body.contains("\"key\":\"length\",\"label\":\"Length\",\"value\":86"))
  }
}
