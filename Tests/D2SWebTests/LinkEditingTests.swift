import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// The edit-relationship page of a many-to-many (`/Film/1/-/links/actors`): adding and
/// removing links, each in one transaction; a change made meanwhile is a conflict; the rules'
/// permissions hold at the POST.
@Suite struct LinkEditingTests {
  /// `film_actor`'s actors of film `film`, in order, as stored.
  static func actors(_ db: TestBackend, film: Int = 1) throws -> String {
    let list =
      db.kind == .sqlite
      ? "group_concat(actor_id, ',')" : "string_agg(actor_id::text, ',' ORDER BY actor_id)"
    let stored = try db.stored(
      "SELECT \(list), 0 FROM (SELECT actor_id FROM film_actor WHERE film_id = \(film) ORDER BY actor_id) AS a"
    )
    return String(stored.dropLast(2))
  }

  /// Jon (staff 2) gets Mike's password, 12345.
  static func givePasswordToJon(_ db: TestBackend) throws {
    try db.execute(
      "UPDATE staff SET password = (SELECT password FROM staff WHERE staff_id = 1) WHERE staff_id = 2"
    )
  }

  /// The fields of the page's first form that posts `field` (`add`, `remove`) for `key`.
  static func form(_ html: String, _ field: String, _ key: String) -> [(String, String)] {
    let marker = "name=\"\(field)\" value=\"\(key)\""
    guard let end = html.range(of: marker),
      let start = html.range(
        of: "<form class=\"inline link\"", options: .backwards,
        range: html.startIndex..<end.lowerBound)
    else { return [] }
    let form = String(html[start.lowerBound..<end.upperBound])
    return [
      ("_csrf", Page.matches(#"name="_csrf" value="([^"]*)""#, in: form).first ?? ""),
      (
        "_links",
        Page.unescape(Page.matches(#"name="_links" value="([^"]*)""#, in: form).first ?? "")
      ),
      (field, key),
    ]
  }

  /// The keys the page offers to add, in order.
  static func candidates(_ html: String) -> [String] {
    Page.matches(#"name="add" value="([^"]*)""#, in: html)
  }

  /// `keys` as the sorted list `actors(_:)` reads.
  static func sorted(_ keys: [String]) -> String {
    keys.compactMap(Int.init).sorted().map(String.init).joined(separator: ",")
  }

  @Test(arguments: ShopFixture.kinds)
  func aUserAddsTwoActorsAndRemovesOne(kind: ShopFixture.Kind) async throws {
    let (app, db) = try WebEditingTests.demo(kind)
    let before = try Self.actors(db)
    #expect(before == "1,10,20,30,40,53,108,162,188,198")
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let list = await browser.get("/Film/1/actors")
    #expect(list.body.contains(#"<a href="/Film/1/-/links/actors">Add or remove</a>"#))
    var page = await browser.get("/Film/1/-/links/actors")
    #expect(page.status == 200)
    #expect(page.body.contains("<h1>Actors of ACADEMY DINOSAUR</h1>"))
    #expect(page.body.contains("Linked (10)"))
    let offered = Self.candidates(page.body)
    try #require(offered.count >= 2)
    #expect(!offered.contains("10"), "a linked actor is not offered")
    for key in offered.prefix(2) {
      let added = await browser.post("/Film/1/-/links/actors", Self.form(page.body, "add", key))
      #expect(added.status == 303)
      page = await browser.get("/Film/1/-/links/actors")
    }
    let linked = before.split(separator: ",").map(String.init) + offered.prefix(2)
    #expect(try Self.actors(db) == Self.sorted(linked))
    let removed = await browser.post("/Film/1/-/links/actors", Self.form(page.body, "remove", "10"))
    #expect(removed.status == 303)
    #expect(try Self.actors(db) == Self.sorted(linked.filter { $0 != "10" }))
    #expect(page.body.contains("Linked (12)"))
    // The link row's NOT NULL timestamp was filled in.
    #expect(
      try db.stored(
        "SELECT count(*), 0 FROM film_actor WHERE film_id = 1 AND actor_id = \(offered[0]) AND last_update IS NOT NULL"
      ) == "1|0")
  }

  @Test func manyLinksAreListedUpToTheLimitAndTheFormsStaySmall() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    try db.execute(
      "INSERT OR IGNORE INTO film_actor (actor_id, film_id, last_update) SELECT 2, film_id, CURRENT_TIMESTAMP FROM film WHERE film_id <= 300"
    )
    let count = try db.stored("SELECT count(*), 0 FROM film_actor WHERE actor_id = 2")
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let page = await browser.get("/Actor/2/-/links/films")
    #expect(page.status == 200)
    #expect(page.body.contains("Linked (\(count.dropLast(2)))"))
    #expect(
      Page.matches(#"name="remove" value="([^"]*)""#, in: page.body).count
        == WebApplication.linkedLimit)
    #expect(page.body.contains("The first \(WebApplication.linkedLimit) are shown"))
    let digests = Page.matches(#"name="_links" value="([^"]*)""#, in: page.body)
    #expect(!digests.isEmpty && digests.allSatisfy { $0.count == 32 }, "a digest, not the keys")
    // A removal through it still works, and a stale digest is a conflict.
    let form = Self.form(page.body, "remove", "3")
    #expect(await browser.post("/Actor/2/-/links/films", form).status == 303)
    #expect(await browser.post("/Actor/2/-/links/films", form).status == 409)
  }

  /// More linked rows than the page reads, all first in the candidates' order: the rows not
  /// linked after them are still offered (before, the page said "Nothing else matches").
  @Test(arguments: ShopFixture.kinds)
  func rowsNotLinkedAreOfferedBehindMoreLinkedThanThePageReads(kind: ShopFixture.Kind)
    async throws
  {
    let (app, db) = try WebEditingTests.demo(kind)
    let first300 =
      "SELECT 2, film_id, CURRENT_TIMESTAMP FROM film ORDER BY title, film_id LIMIT 300"
    try db.execute(
      kind == .sqlite
        ? "INSERT OR IGNORE INTO film_actor (actor_id, film_id, last_update) \(first300)"
        : "INSERT INTO film_actor (actor_id, film_id, last_update) \(first300) ON CONFLICT DO NOTHING"
    )
    let next = try db.stored(
      "SELECT film_id, 0 FROM film WHERE film_id NOT IN (SELECT film_id FROM film_actor WHERE actor_id = 2) ORDER BY title, film_id LIMIT 1"
    )
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let page = await browser.get("/Actor/2/-/links/films")
    #expect(page.status == 200)
    #expect(!page.body.contains("Nothing else matches"))
    let offered = Self.candidates(page.body)
    #expect(offered.count == WebApplication.chooseLimit)
    #expect(offered.first == String(next.dropLast(2)), "the first film not linked, by title")
    #expect(page.body.contains("search to find others"))
  }

  @Test(arguments: ShopFixture.kinds)
  func aLinkChangedMeanwhileIsAConflictAndNothingChanges(kind: ShopFixture.Kind) async throws {
    let (app, db) = try WebEditingTests.demo(kind)
    try Self.givePasswordToJon(db)
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let page = await browser.get("/Film/1/-/links/actors")
    let offered = Self.candidates(page.body)
    try #require(offered.count >= 2)
    // Another user links an actor meanwhile.
    let other = WebClient(app, address: "10.0.0.2")
    #expect(await other.login("Jon", "12345").status == 303)
    let theirs = await other.get("/Film/1/-/links/actors")
    #expect(
      await other.post("/Film/1/-/links/actors", Self.form(theirs.body, "add", offered[1])).status
        == 303)
    let after = try Self.actors(db)
    let conflict = await browser.post(
      "/Film/1/-/links/actors", Self.form(page.body, "add", offered[0]))
    #expect(conflict.status == 409)
    #expect(conflict.body.contains("changed the actors"))
    #expect(conflict.body.contains("Linked (11)"), "the page as it is now")
    #expect(try Self.actors(db) == after, "nothing was written")
    // Removing with the old page is a conflict too.
    let removal = await browser.post("/Film/1/-/links/actors", Self.form(page.body, "remove", "10"))
    #expect(removal.status == 409)
    #expect(try Self.actors(db) == after)
    // From the page as it is now, the change is made.
    #expect(
      await browser.post("/Film/1/-/links/actors", Self.form(conflict.body, "add", offered[0]))
        .status == 303)
    #expect(
      try Self.actors(db)
        == Self.sorted(after.split(separator: ",").map(String.init) + [offered[0]]))
  }

  @Test(arguments: ShopFixture.kinds)
  func aUserTheRulesForbidGets403AndNothingChanges(kind: ShopFixture.Kind) async throws {
    let target =
      switch kind {
      case .sqlite: try SakilaSQLite.copy()
      case .postgresql: try PostgresSakila.copy()
      }
    let db = TestBackend(kind: kind, target: target)
    try Self.givePasswordToJon(db)
    let forbidding = try WebFixtures.ruleFile(
      "user.username = 'Jon' AND entity.name = 'FilmActor' => isEntityReadOnly = true ; high\n")
    let app = try WebApplication.open(
      target, rules: [WebEditingTests.demoRules, forbidding])
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let page = await mike.get("/Film/1/-/links/actors")
    let jon = WebClient(app, address: "10.0.0.2")
    await jon.login("Jon", "12345")
    #expect(await jon.get("/Film/1/-/links/actors").status == 403)
    #expect(!(await jon.get("/Film/1/actors")).body.contains("/-/links/actors"))
    // Jon's own token on Mike's form: the rules still say no.
    var fields = Self.form(page.body, "add", Self.candidates(page.body).first ?? "")
    try #require(fields.count == 3)
    let jonPage = await jon.get("/Film/1/-/edit")
    fields[0].1 = WebClient.csrf(jonPage.body, form: "edit") ?? ""
    #expect(await jon.post("/Film/1/-/links/actors", fields).status == 403)
    #expect(try Self.actors(db) == "1,10,20,30,40,53,108,162,188,198")
  }

  @Test func anEndTheRulesLockHasNoButtonAndCannotBeUnlinked() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    // Mike may not edit PENELOPE (actor 1), a moviestar of film 1.
    let page = await mike.get("/Film/1/-/links/actors")
    #expect(page.body.contains(">PENELOPE GUINESS</a></li>"), "listed, without Remove")
    var fields = Self.form(page.body, "remove", "10")
    try #require(fields.count == 3)
    fields[2].1 = "1"
    #expect(await mike.post("/Film/1/-/links/actors", fields).status == 403)
    #expect(try Self.actors(db).hasPrefix("1,"))
    // Nor from PENELOPE's side.
    #expect(await mike.get("/Actor/1/-/links/films").status == 403)
  }

  @Test func formsNeedASessionItsTokenAndAWritableServer() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    let anonymous = WebClient(app)
    let login = await anonymous.get("/Film/1/-/links/actors")
    #expect(login.status == 303)
    #expect(
      await anonymous.post("/Film/1/-/links/actors", [("_csrf", "x"), ("add", "2")]).status == 403)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let page = await mike.get("/Film/1/-/links/actors")
    let offered = Self.candidates(page.body).first ?? ""
    var fields = Self.form(page.body, "add", offered)
    try #require(fields.count == 3)
    fields[0].1 = "forged"
    #expect(await mike.post("/Film/1/-/links/actors", fields).status == 403)
    // Not a link table: the rows of inventories are rows of their own, and no link table is
    // blamed for it (a plain to-many has none).
    let inventories = await mike.get("/Film/1/-/links/inventories")
    #expect(inventories.status == 404)
    #expect(inventories.body.contains("inventories are rows of their own"))
    #expect(!inventories.body.contains("link table"))
    #expect(await mike.get("/Film/1/-/links/nothing").status == 404)
    // A key that is not an actor's.
    let missing = await mike.post(
      "/Film/1/-/links/actors",
      Self.form(page.body, "add", offered).map {
        $0.0 == "add" ? ("add", "99999") : $0
      })
    #expect(missing.status == 404)
    #expect(try Self.actors(db) == "1,10,20,30,40,53,108,162,188,198")
    let (readOnly, _) = try WebEditingTests.demo(.sqlite, readOnly: true)
    let reader = WebClient(readOnly)
    await reader.login("Mike", "12345")
    #expect(await reader.get("/Film/1/-/links/actors").status == 403)
  }

  @Test func aPageAddsMarkupSafely() async throws {
    let (app, db) = try WebEditingTests.demo(.sqlite)
    try db.execute("UPDATE actor SET first_name = '<b>X</b>' WHERE actor_id = 1")
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let page = await mike.get("/Film/1/-/links/actors?q=%3Cb")
    #expect(page.body.contains("&lt;b&gt;X&lt;/b&gt;"))
    #expect(!page.body.contains("<b>X"))
    #expect(Page.unlabelledControls(page.body).isEmpty)
  }
}
