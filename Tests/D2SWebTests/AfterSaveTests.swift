import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// After a save: a one-time "Saved." on the page it leads to (no JavaScript), "Save and
/// continue editing", and a breadcrumb on every page (entity list › list › object).
@Suite struct AfterSaveTests {
  @Test func aSaveSaysSoOnceOnThePageItLeadsTo() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Film/1/-/edit")
    #expect(!form.body.contains(#"class="saved""#))
    let saved = await mike.post(
      "/Film/1/-/edit", WebEditingTests.change(form.body, "length", to: "87"))
    #expect(saved.status == 303)
    #expect(saved.header("Location") == "/Film/1")
    // Another page first: the message waits for its own.
    #expect(!(await mike.get("/Film/2")).body.contains(#"class="saved""#))
    let page = await mike.get("/Film/1")
    #expect(page.body.contains(#"<p class="saved" role="status">Saved.</p>"#))
    #expect(!(await mike.get("/Film/1")).body.contains(#"class="saved""#), "once")
  }

  @Test func saveAndContinueComesBackToTheForm() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Film/1/-/edit")
    #expect(
      form.body.contains(
        #"<button type="submit" name="_continue" value="1">Save and continue editing</button>"#))
    let saved = await mike.post(
      "/Film/1/-/edit",
      WebEditingTests.change(form.body, "length", to: "88") + [("_continue", "1")])
    #expect(saved.header("Location") == "/Film/1/-/edit")
    #expect(try db.stored("SELECT length, 0 FROM film WHERE film_id = 1") == "88|0")
    let again = await mike.get("/Film/1/-/edit")
    #expect(again.body.contains("Saved."))
    #expect(again.body.contains(#"value="88""#))
    // A new object goes on in its own edit form.
    let new = await mike.get("/Language/-/new")
    let fields = ShopFixture.set(ShopFixture.formFields(new.body), ["name": "Esperanto"])
    let made = await mike.post("/Language/-/new", fields + [("_continue", "1")])
    #expect(made.status == 303)
    #expect(made.header("Location")?.hasSuffix("/-/edit") == true)
    #expect(made.header("Location")?.hasPrefix("/Language/") == true)
  }

  @Test func aDeleteSaysSoOnTheList() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    // A language no film uses.
    let new = await mike.get("/Language/-/new")
    let made = await mike.post(
      "/Language/-/new", ShopFixture.set(ShopFixture.formFields(new.body), ["name": "Klingon"]))
    let path = made.header("Location") ?? ""
    let confirm = await mike.get(path + "/-/delete")
    let stamp = Page.matches(#"name="_row" value="([^"]*)""#, in: confirm.body).first ?? ""
    let deleted = await mike.post(
      path + "/-/delete",
      [
        ("_csrf", WebClient.csrf(confirm.body, form: "delete") ?? ""),
        ("_row", Page.unescape(stamp)),
      ])
    #expect(deleted.status == 303)
    #expect((await mike.get("/Language")).body.contains("Deleted."))
  }

  @Test func everyPageHasItsBreadcrumb() async throws {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let entities = #"<nav class="breadcrumb" aria-label="Breadcrumb"><a href="/">Entities</a>"#
    let films = entities + #" › <a href="/Film">Film</a>"#
    let film = films + #" › <a href="/Film/1">ACADEMY DINOSAUR</a></nav>"#
    #expect(!(await mike.get("/")).body.contains("breadcrumb"))
    #expect((await mike.get("/Film")).body.contains(entities + "</nav>"))
    #expect((await mike.get("/Film/1")).body.contains(films + "</nav>"))
    #expect((await mike.get("/Actor/1")).body.contains(#"<a href="/Actor">Moviestars</a></nav>"#))
    for path in ["/Film/1/actors", "/Film/1/-/edit", "/Film/1/-/delete", "/Film/1/-/links/actors"] {
      #expect((await mike.get(path)).body.contains(film), "\(path)")
    }
    #expect((await mike.get("/Film/-/new")).body.contains(films + "</nav>"))
  }
}
