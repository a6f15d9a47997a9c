import D2STesting
import Foundation
import Testing

@testable import D2SHTML
@testable import D2SWeb

/// Sections and tabs on the web: the demo's Film in sections (`<section>` on inspect,
/// `<fieldset>` in forms), and a fixture's tabs, whose links work without JavaScript and whose
/// form saves every tab's values with one POST.
@Suite struct SectionPageTests {
  static let tabRules = """
    task = 'edit' AND entity.name = 'Product' => displayPropertyKeys = ('[Basics]', 'name', 'category', '[Stock]', 'price', 'stock', 'active', 'size')

    """

  @Test func theDemosFilmIsInSections() async throws {
    let (app, _) = try WebEditingTests.demo()
    let browser = WebClient(app)
    let inspect = await browser.get("/Film/1").body
    #expect(inspect.contains(#"<section class="section"><h2>Rental</h2>"#))
    #expect(inspect.contains(#"<section class="section"><h2>Cast and copies</h2>"#))
    await browser.login("Mike", "12345")
    let edit = await browser.get("/Film/1/-/edit").body
    #expect(edit.contains(#"<fieldset class="section"><legend>Film</legend>"#))
    #expect(edit.contains(#"<fieldset class="section"><legend>Rental</legend>"#))
    #expect(edit.contains(#"name="rentalRate""#) && edit.contains(#"name="title""#))
    // JSON names them too.
    let json = await app.get("/Film/1", accept: "application/json")
    #expect(json.body.contains(#""sections":[{"title":"Film","kind":"section","keys":["title","#))
  }

  @Test(arguments: ShopFixture.kinds)
  func aNewObjectWithTabsSavesEveryTabsValuesOnce(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(
      kind, rules: [try WebFixtures.ruleFile(Self.tabRules)])
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let page = await ann.get("/Product/-/new")
    let html = page.body
    #expect(
      html.contains(
        ##"<nav class="tabs" aria-label="Tabs"><a href="#tab-1">Basics</a> <a href="#tab-2">Stock</a></nav>"##
      ))
    #expect(html.contains(#"<div class="tabbed">"#))
    #expect(html.contains(#"<fieldset class="tab" id="tab-1"><legend>Basics</legend>"#))
    #expect(html.contains(#"<fieldset class="tab" id="tab-2"><legend>Stock</legend>"#))
    #expect(html.components(separatedBy: "<form class=\"edit\"").count == 2, "one form")
    #expect(Page.unlabelledControls(html).isEmpty)
    let fields = ShopFixture.set(
      ShopFixture.formFields(html),
      [
        "code": "T1", "name": "Tabbed", "price": "3.25", "stock": "4", "size": "S",
        "_null.stock": nil, "_null.size": nil,
      ])
    let saved = await ann.post("/Product/-/new", fields)
    #expect(saved.status == 303, "\(saved.body)")
    let stored = try ShopFixture.stored(
      kind, target,
      "SELECT name, \(kind == .sqlite ? "price" : "price::text"), \(kind == .sqlite ? "stock" : "stock::text"), \(kind == .sqlite ? "size" : "size::text") FROM product WHERE code = 'T1'"
    )
    #expect(stored == (kind == .sqlite ? "Tabbed|3.25|4|S" : "Tabbed|3.25|4|S"))
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "2")
  }

  @Test func aFormWithAnErrorShowsEveryTab() async throws {
    let (app, _) = try ShopFixture.open(.sqlite, rules: [try WebFixtures.ruleFile(Self.tabRules)])
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let page = await ann.get("/Product/P1/-/edit")
    #expect(page.body.contains(#"<div class="tabbed">"#))
    let fields = ShopFixture.set(ShopFixture.formFields(page.body), ["stock": "many"])
    let invalid = await ann.post("/Product/P1/-/edit", fields)
    #expect(invalid.status == 400)
    #expect(!invalid.body.contains(#"<div class="tabbed">"#), "the error's tab is not hidden")
    #expect(invalid.body.contains(#"aria-describedby="e-stock""#))
  }

  @Test func theStylesheetShowsOneTabAtATime() {
    let css = Stylesheet.text
    #expect(css.contains(".tabbed > .tab:not(:first-child) { display: none; }"))
    #expect(css.contains(".tabbed > .tab:target { display: block; }"))
  }
}
