import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SHTML
@testable import D2SWeb

/// Issue 42's small things: Log in returns to the page it was asked from, each NULL box is
/// named by its field, and every colour of the stylesheet reads at 4.5:1 on its background,
/// light and dark.
@Suite struct SmallManners42Tests {
  @Test func logInReturnsToThePageItWasAskedFrom() async throws {
    let (app, _) = try WebEditingTests.demo()
    let film = await app.get("/Film/1")
    #expect(Page.links(film.body).contains("/-/login?next=%2FFilm%2F1"))
    let list = await app.get("/Film?where=" + "length > 100".webQuery + "&order=title")
    let link = try #require(Page.links(list.body).first { $0.hasPrefix("/-/login?next=") })
    let next = try #require(
      link.dropFirst("/-/login?next=".count).removingPercentEncoding?.replacingOccurrences(
        of: "+", with: " "))
    #expect(next == "/Film?where=length%20%3E%20100&order=title")
    let answer = await WebClient(app).login("Mike", "12345", next: next)
    #expect(answer.status == 303)
    #expect(answer.header("Location") == next, "logged in, back on the filtered list")
  }

  @Test func aToManyListSaysWhoseRowsTheyAre() async throws {
    let (app, _) = try WebEditingTests.demo()
    let actors = await app.get("/Film/1/actors")
    #expect(actors.body.contains("<h1>Actors of ACADEMY DINOSAUR</h1>"))
    #expect(actors.body.contains("<title>Actors of ACADEMY DINOSAUR"))
    // The entity's own list keeps its name.
    #expect((await app.get("/Actor")).body.contains("<h1>Moviestars</h1>"))
  }

  @Test func anErrorPageKnowsWhoIsLoggedIn() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    for path in ["/Film/999999", "/Nothing", "/Film/1/-/links/inventories"] {
      let missing = await mike.get(path)
      #expect(missing.status == 404)
      #expect(missing.body.contains(#"<span class="user">Mike Hillyer</span>"#), "\(path)")
      #expect(missing.body.contains("Log out") && !missing.body.contains(">Log in<"))
    }
    let anonymous = await WebClient(app).get("/Film/999999")
    #expect(anonymous.body.contains(">Log in<"))
  }

  @Test func theDeletePageOfAFilmListsWhatRefersToItByLabel() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let page = await mike.get("/Film/10/-/delete")
    #expect(page.status == 200)
    #expect(page.body.contains(#"<th scope="row">Release Year</th>"#), "labels, not keys")
    #expect(!page.body.contains(#"<th scope="row">releaseYear</th>"#))
    #expect(page.body.contains("8 FilmActor (Film Actors): the database refuses the delete"))
    #expect(page.body.contains("7 Inventory (Inventories): the database refuses the delete"))
    #expect(page.body.contains("The database refuses to delete it while rows refer to it"))
    #expect(!page.body.contains(#"<form class="delete""#), "no button that would answer 409")
  }

  @Test(arguments: ShopFixture.kinds)
  func aNewFilmWithoutALanguageNamesTheFieldAndTheFormMarksIt(kind: ShopFixture.Kind)
    async throws
  {
    let (app, db) = try WebEditingTests.demo(kind)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Film/-/new")
    #expect(form.body.contains(#"id="f-language" name="language" required aria-required="true""#))
    #expect(form.body.contains(#"<label for="f-language" class="required">Language</label>"#))
    #expect(!form.body.contains(#"name="title" required"#), "text may be empty")
    let before = try db.stored("SELECT count(*), 0 FROM film")
    let fields = ShopFixture.set(
      ShopFixture.formFields(form.body),
      ["title": "NAMELESS TONGUE", "language": "", "_null.language": nil])
    let refused = await mike.post("/Film/-/new", fields)
    #expect(refused.status == 400)
    #expect(
      refused.body.contains(
        #"<span class="error" id="e-language">a value is required</span>"#))
    #expect(!refused.body.contains("not saved: a value is required"))
    #expect(try db.stored("SELECT count(*), 0 FROM film") == before)
  }

  @Test func eachNullBoxIsNamedByItsField() async throws {
    let (app, _) = try WebEditingTests.demo()
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let form = await browser.get("/Film/1/-/edit")
    #expect(form.status == 200)
    #expect(form.body.contains(#"name="_null.description" aria-label="Description: NULL""#))
  }

  /// WCAG 2's contrast of two `#rrggbb` colours.
  static func contrast(_ a: String, _ b: String) -> Double {
    func luminance(_ hex: String) -> Double {
      let digits = Array(hex.dropFirst())
      let full = digits.count == 3 ? digits.flatMap { [$0, $0] } : digits
      let channels = stride(from: 0, to: 6, by: 2).map {
        Double(Int(String(full[$0..<($0 + 2)]), radix: 16) ?? 0) / 255
      }
      let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
      return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }
    let (x, y) = (luminance(a), luminance(b))
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
  }

  @Test func everyColourReadsAtFourAndAHalfToOne() throws {
    let css = Stylesheet.text
    let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
    func colours(_ text: Substring) -> [String: String] {
      var found: [String: String] = [:]
      let regex = try? NSRegularExpression(pattern: #"--([a-z]+): (#[0-9a-fA-F]{3,6});"#)
      let string = String(text)
      for result in regex?.matches(in: string, range: NSRange(string.startIndex..., in: string))
        ?? []
      {
        if let name = Range(result.range(at: 1), in: string),
          let value = Range(result.range(at: 2), in: string)
        {
          found[String(string[name])] = String(string[value])
        }
      }
      return found
    }
    let light = colours(css[..<dark.lowerBound])
    let darkColours = light.merging(
      colours(css[dark.upperBound...].prefix { $0 != "}" } + "}"), uniquingKeysWith: { $1 })
    for name in ["muted", "link", "red", "green", "yellow"] {
      let (day, night) = (try #require(light[name]), try #require(darkColours[name]))
      #expect(Self.contrast(day, "#ffffff") >= 4.5, "\(name) \(day) on white")
      #expect(Self.contrast(night, "#121212") >= 4.5, "\(name) \(night) on Chromium's dark canvas")
    }
    // No colour outside the variables.
    let rules = css[css.index(after: css.firstIndex(of: "}") ?? css.startIndex)...]
    #expect(!rules.replacingOccurrences(of: "#8884", with: "").contains("color: #"))
  }
}
