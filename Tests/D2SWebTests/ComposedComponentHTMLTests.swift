import Components
import D2STesting
import D2SWeb
import Plugins
import Testing

/// A bar of blocks beside the formatted value, and a value with a note under it.
struct WebRateBar: D2SView {
  static let componentName = "DisplayRateBar"
  var body: some D2SView {
    HStack(spacing: 1) {
      Text("███")
      FormattedValue()
    }
  }
}

struct WebNotedValue: D2SView {
  static let componentName = "DisplayNoted"
  var body: some D2SView {
    FormattedValue()
    Text("(per day)")
  }
}

struct WebRateBarPlugin: D2SPlugin {
  let name = "WebRateBar"
  var components: [PluginComponent] {
    [
      PluginComponent(look: "BasicLook", WebRateBar()),
      PluginComponent(look: "BasicLook", WebNotedValue()),
    ]
  }
  var ruleText: String? {
    """
    propertyKey = 'rentalRate' => component = 'DisplayRateBar'
    propertyKey = 'rentalDuration' => component = 'DisplayNoted'
    """
  }
}

/// A composed component keeps every part in HTML: a row shows them all, a list cell joins
/// them on one line (the terminal, Markdown and JSON: `ComposedComponentTests`).
@Suite struct ComposedComponentHTMLTests {
  @Test func everyPartShowsInARowAndInACell() async throws {
    let app = try WebApplication.open(try SakilaSQLite.copy(), plugins: [WebRateBarPlugin()])
    let film = await app.respond(to: WebRequest(target: "/Film/1"))
    #expect(film.body.contains("<th scope=\"row\">Rental Rate</th><td>███ 0.99</td>"))
    #expect(film.body.contains("<th scope=\"row\">Rental Duration</th><td>6<br>(per day)</td>"))
    let list = await app.respond(to: WebRequest(target: "/Film?order=title&limit=1"))
    #expect(list.body.contains("<td>███ 0.99</td>"), "\(list.body)")
    #expect(list.body.contains("<td>6 (per day)</td>"), "\(list.body)")
  }
}

/// The rating in bold red.
struct WebRatingFlag: D2SView {
  var body: some D2SView { FormattedValue().bold().foregroundStyle(.red) }
}

struct WebStylePlugin: D2SPlugin {
  let name = "WebStyle"
  var components: [PluginComponent] { [PluginComponent(look: "BasicLook", WebRatingFlag())] }
  var ruleText: String? { "propertyKey = 'rating' => component = 'WebRatingFlag'" }
}

/// Styles in HTML are classes the stylesheet shows, on rows and list cells alike.
@Suite struct TextStyleHTMLTests {
  @Test func aStyleIsAClassedSpan() async throws {
    let app = try WebApplication.open(try SakilaSQLite.copy(), plugins: [WebStylePlugin()])
    let film = await app.respond(to: WebRequest(target: "/Film/1"))
    #expect(film.body.contains("<td><span class=\"s-bold s-red\">PG</span></td>"), "\(film.body)")
    let list = await app.respond(to: WebRequest(target: "/Film?order=title&limit=1"))
    #expect(list.body.contains("<td><span class=\"s-bold s-red\">PG</span></td>"), "\(list.body)")
    let css = await app.respond(to: WebRequest(target: "/-/static/d2s.css"))
    #expect(css.body.contains(".s-red {"))
  }
}
