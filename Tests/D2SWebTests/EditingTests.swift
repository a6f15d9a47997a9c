import D2SModel
import D2STesting
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A browser's side of the conversation: cookies kept from `Set-Cookie`, forms read from pages.
final class WebClient: @unchecked Sendable {
  let app: WebApplication
  var cookies: [String: String] = [:]
  /// The client's address, as the server sees it.
  let address: String

  init(_ app: WebApplication, address: String = "127.0.0.1") {
    self.app = app
    self.address = address
  }

  @discardableResult
  func get(_ target: String) async -> WebResponse {
    var request = WebRequest(target: target, cookies: cookies)
    request.clientAddress = address
    return keep(await app.respond(to: request))
  }

  @discardableResult
  func post(_ target: String, _ fields: [(String, String)]) async -> WebResponse {
    var request = WebRequest(
      method: "POST", target: target, cookies: cookies, body: HTML.query(fields))
    request.clientAddress = address
    return keep(await app.respond(to: request))
  }

  private func keep(_ response: WebResponse) -> WebResponse {
    for (name, value) in response.headers where name == "Set-Cookie" {
      let pair = value.split(separator: ";")[0].split(
        separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { continue }
      if value.contains("Max-Age=0") {
        cookies[String(pair[0])] = nil
      } else {
        cookies[String(pair[0])] = String(pair[1])
      }
    }
    return response
  }

  /// The hidden `_csrf` of the page's first form of `kind` (`login`, `edit`, `inline`).
  static func csrf(_ html: String, form kind: String = "") -> String? {
    guard let start = html.range(of: "<form class=\"\(kind)") else { return nil }
    return Page.matches(#"name="_csrf" value="([^"]*)""#, in: String(html[start.lowerBound...]))
      .first
  }

  /// Logs in; the answer.
  @discardableResult
  func login(_ user: String, _ password: String, next: String = "/") async -> WebResponse {
    let page = await get("/-/login")
    let token = Self.csrf(page.body, form: "login") ?? ""
    return await post(
      "/-/login", [("_csrf", token), ("user", user), ("password", password), ("next", next)])
  }
}

/// Logging in and editing in a browser, on the demo rules: sessions, CSRF, permissions,
/// conflicts, invalid values, read-only servers; the stored bytes are checked after a save.
@Suite struct WebEditingTests {
  /// The demo rules of this checkout (`data/demo.d2s`).
  static let demoRules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/demo.d2s"
    ).path

  static func demo(readOnly: Bool = false) throws -> (WebApplication, String) {
    let path = try SakilaSQLite.copy()
    return (try WebApplication.open(path, rules: [demoRules], readOnly: readOnly), path)
  }

  /// The demo on `kind`: the application and its database.
  static func demo(
    _ kind: ShopFixture.Kind, readOnly: Bool = false, extraRules: [String] = []
  ) throws -> (WebApplication, TestBackend) {
    let target =
      switch kind {
      case .sqlite: try SakilaSQLite.copy()
      case .postgresql: try PostgresSakila.copy()
      }
    let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "data/demo.d2s"
      ).path
    return (
      try WebApplication.open(target, rules: [rules] + extraRules, readOnly: readOnly),
      TestBackend(kind: kind, target: target)
    )
  }

  static func stored(_ path: String, _ sql: String) throws -> String {
    var result = ""
    try SQLiteAdaptor(path: path).query(SQLStatement(raw: sql), columns: [nil, nil]) { row in
      result = row.map { $0.stringValue ?? $0.description }.joined(separator: "|")
    }
    return result
  }

  /// The edit form's fields for `key` as the page shows them, with `text` typed.
  static func change(_ html: String, _ key: String, to text: String) -> [(String, String)] {
    let shown = Page.matches(#"name="_shown\.\#(key)" value="([^"]*)""#, in: html).first ?? ""
    let shownText = Page.matches(#"name="_text\.\#(key)" value="([^"]*)""#, in: html).first ?? ""
    return [
      ("_csrf", WebClient.csrf(html, form: "edit") ?? ""), (key, text),
      ("_shown." + key, Page.unescape(shown)), ("_text." + key, Page.unescape(shownText)),
    ]
  }

  @Test func aLoggedInUserEditsAFilmAndTheDatabaseHoldsTheValue() async throws {
    let (app, path) = try Self.demo()
    let browser = WebClient(app)
    let login = await browser.login("Mike", "12345", next: "/Film/1")
    #expect(login.status == 303)
    #expect(login.header("Location") == "/Film/1")
    let cookie = try #require(login.headers.first { $0.0 == "Set-Cookie" }?.1)
    #expect(
      cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
    let inspect = await browser.get("/Film/1")
    #expect(Page.links(inspect.body).contains("/Film/1/-/edit"))
    #expect(inspect.body.contains("Mike Hillyer"))
    let form = await browser.get("/Film/1/-/edit")
    #expect(form.status == 200)
    #expect(form.header("Cache-Control") == "no-store")
    #expect(Page.unlabelledControls(form.body).isEmpty)
    let saved = await browser.post(
      "/Film/1/-/edit", Self.change(form.body, "replacementCost", to: "$19.99"))
    #expect(saved.status == 303)
    #expect(saved.header("Location") == "/Film/1")
    #expect(
      try Self.stored(
        path, "SELECT replacement_cost, typeof(replacement_cost) FROM film WHERE film_id = 1")
        == "19.99|real")
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil))
  func onPostgreSQLTooEditsSaveConflictsAreRefusedAndTokensChecked() async throws {
    let conninfo = try PostgresSakila.copy()
    let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "data/demo.d2s"
      ).path
    let app = try WebApplication.open(conninfo, rules: [rules])
    let browser = WebClient(app)
    #expect(await browser.login("Mike", "12345").status == 303)
    let form = await browser.get("/Film/1/-/edit")
    #expect(form.status == 200)
    var noToken = Self.change(form.body, "replacementCost", to: "$1.00")
    noToken[0].1 = ""
    #expect(await browser.post("/Film/1/-/edit", noToken).status == 403)
    let saved = await browser.post(
      "/Film/1/-/edit", Self.change(form.body, "replacementCost", to: "$19.99"))
    #expect(saved.status == 303)
    let conflict = await browser.post(
      "/Film/1/-/edit", Self.change(form.body, "replacementCost", to: "$18.99"))
    #expect(conflict.status == 409, "the form still says $20.99 was shown")
    var value = ""
    try PostgreSQLAdaptor(url: conninfo).query(
      SQLStatement(raw: "SELECT replacement_cost::text FROM film WHERE film_id = 1"), columns: [nil]
    ) { value = $0[0].stringValue ?? "" }
    #expect(value == "19.99")
    #expect(await browser.get("/Actor/1/-/edit").status == 403)
  }

  @Test(arguments: ShopFixture.kinds)
  func aChangeMadeMeanwhileIsAConflictAndNothingIsWritten(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let form = await browser.get("/Film/1/-/edit")
    try db.execute(
      "UPDATE film SET replacement_cost = 5.55 WHERE film_id = 1")
    let conflict = await browser.post(
      "/Film/1/-/edit", Self.change(form.body, "replacementCost", to: "$18.99"))
    #expect(conflict.status == 409)
    #expect(
      conflict.body.contains("$20.99") && conflict.body.contains("$5.55")
        && conflict.body.contains("$18.99"))
    #expect(conflict.body.contains(#"<th scope="row">Replacement Cost</th>"#), "by its label")
    #expect(
      try db.stored("SELECT replacement_cost, 0 FROM film WHERE film_id = 1") == "5.55|0")
    // Keeping their values: the conflict page's form saves them over the current row.
    let keep = await browser.post(
      "/Film/1/-/edit", Self.change(conflict.body, "replacementCost", to: "$18.99"))
    #expect(keep.status == 303)
    #expect(
      try db.stored("SELECT replacement_cost, 0 FROM film WHERE film_id = 1") == "18.99|0")
  }

  @Test(arguments: ShopFixture.kinds)
  func anInvalidValueIsShownBesideItsFieldAndNothingIsWritten(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let form = await browser.get("/Film/1/-/edit")
    let invalid = await browser.post("/Film/1/-/edit", Self.change(form.body, "length", to: "abc"))
    #expect(invalid.status == 400)
    #expect(invalid.body.contains(#"aria-invalid="true" aria-describedby="e-length""#))
    #expect(invalid.body.contains(#"value="abc""#), "the user's input is kept")
    #expect(try db.stored("SELECT length, 0 FROM film WHERE film_id = 1") == "86|0")
  }

  @Test(arguments: ShopFixture.kinds)
  func formsNeedTheirSessionsToken(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Film/1/-/edit")
    var fields = Self.change(form.body, "length", to: "99")
    let missing = await mike.post("/Film/1/-/edit", Array(fields.dropFirst()))
    #expect(missing.status == 403)
    // A token differing in its first character: never the same token, whatever it begins with.
    let token = fields[0].1
    fields[0].1 = (token.hasPrefix("x") ? "y" : "x") + token.dropFirst()
    #expect(fields[0].1 != token)
    #expect(await mike.post("/Film/1/-/edit", fields).status == 403)
    let jon = WebClient(app)
    await jon.login("Jon", "12345")
    let jonsForm = await jon.get("/Film/1/-/edit")
    var crossed = Self.change(form.body, "length", to: "99")
    crossed[0].1 = WebClient.csrf(jonsForm.body, form: "edit") ?? ""
    #expect(await mike.post("/Film/1/-/edit", crossed).status == 403, "another session's token")
    #expect(try db.stored("SELECT length, 0 FROM film WHERE film_id = 1") == "86|0")
  }

  @Test(arguments: ShopFixture.kinds)
  func tamperedExpiredAndMissingSessionsAreAnonymous(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let form = await browser.get("/Film/1/-/edit")
    let fields = Self.change(form.body, "length", to: "99")
    let good = try #require(browser.cookies[WebSession.cookie])
    var bytes = Array(good.utf8)
    bytes[bytes.count / 3] =
      bytes[bytes.count / 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    browser.cookies[WebSession.cookie] = String(decoding: bytes, as: UTF8.self)
    #expect(await browser.post("/Film/1/-/edit", fields).status == 403)
    let redirect = await browser.get("/Film/1/-/edit")
    #expect(redirect.status == 303)
    #expect(redirect.header("Location") == "/-/login?next=%2FFilm%2F1%2F-%2Fedit")
    // An expired session, signed with the server's own key.
    browser.cookies[WebSession.cookie] = good
    #expect(await browser.get("/Film/1/-/edit").status == 200)
    let user = try #require(try db.open().fetchObject("Staff", primaryKey: [.int(1)]))
    func cookie(database: String, now: Date = Date()) async throws -> String {
      let record = try #require(
        WebSession.record(for: user, database: database, keys: app.keys, now: now))
      return try await WebSession.begin(record, keys: app.keys, store: app.sessions)
    }
    browser.cookies[WebSession.cookie] = try await cookie(database: app.databaseName)
    #expect(await browser.get("/Film/1/-/edit").status == 200, "a cookie made now works")
    browser.cookies[WebSession.cookie] = try await cookie(
      database: app.databaseName, now: Date(timeIntervalSinceNow: -13 * 3600))
    #expect(await browser.get("/Film/1/-/edit").status == 303)
    browser.cookies[WebSession.cookie] = try await cookie(database: "another")
    #expect(await browser.get("/Film/1/-/edit").status == 303, "a session of another database")
    // Logging out clears the cookie.
    browser.cookies[WebSession.cookie] = good
    let page = await browser.get("/Film/1")
    let logout = await browser.post(
      "/-/logout", [("_csrf", WebClient.csrf(page.body, form: "inline") ?? "")])
    #expect(logout.status == 303)
    #expect(browser.cookies[WebSession.cookie] == nil)
    #expect(
      await browser.post("/Film/1/-/edit", fields).status == 403,
      "a form's token replayed after logout")
    browser.cookies[WebSession.cookie] = good
    #expect(await browser.post("/-/logout", []).status == 403, "a logout needs its token")
    #expect(await browser.get("/-/logout").status == 405, "a GET never logs out")
  }

  @Test(arguments: ShopFixture.kinds)
  func passwordsAndKeysAreNeverFormFieldsAndAPasswordChangeEndsSessions(kind: ShopFixture.Kind)
    async throws
  {
    let (app, db) = try Self.demo(kind)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let form = await mike.get("/Staff/1/-/edit")
    #expect(form.status == 200)
    #expect(!form.body.contains("name=\"password\""))
    #expect(!form.body.contains("name=\"id\""))
    let csrf = WebClient.csrf(form.body, form: "edit") ?? ""
    let probe = await mike.post(
      "/Staff/1/-/edit",
      [("_csrf", csrf), ("password", "x"), ("_text.password", "y"), ("_shown.password", "n")])
    #expect(probe.status == 400)
    #expect(!probe.body.contains("8cb2237d"), "no stored hash in any answer")
    let moved = await mike.post(
      "/Staff/1/-/edit", [("_csrf", csrf), ("id", "9"), ("_text.id", "1"), ("_shown.id", "i1")])
    #expect(moved.status == 400)
    let notNull = await mike.post(
      "/Staff/1/-/edit",
      [
        ("_csrf", csrf), ("firstName", ""), ("_null.firstName", "on"), ("_text.firstName", "Mike"),
        ("_shown.firstName", "sMike"),
      ])
    #expect(notNull.status == 400)
    #expect(
      try db.stored("SELECT first_name, staff_id FROM staff WHERE staff_id = 1") == "Mike|1"
    )
    try db.execute(
      "UPDATE staff SET password = 'changed' WHERE staff_id = 1")
    #expect(await mike.get("/Film/1/-/edit").status == 303, "a changed password ends the session")
  }

  @Test func loginsSentAtOnceAreSlowedDown() async throws {
    let (app, _) = try Self.demo()
    let browser = WebClient(app)
    let page = await browser.get("/-/login")
    let token = WebClient.csrf(page.body, form: "login") ?? ""
    let statuses = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          await browser.post(
            "/-/login", [("_csrf", token), ("user", "Mike"), ("password", "guess")]
          ).status
        }
      }
      var all: [Int] = []
      for await status in group { all.append(status) }
      return all
    }
    #expect(statuses.filter { $0 == 401 }.count == 1, "\(statuses)")
    #expect(statuses.filter { $0 == 429 }.count == 7, "\(statuses)")
    // The user is not locked out: from another address, a moment later, the login works.
    try await Task.sleep(for: .milliseconds(600))
    let other = await WebClient(app, address: "10.0.0.2").login("Mike", "12345")
    #expect(other.status == 303)
  }

  @Test func listRowsFollowTheRulesNextTask() async throws {
    let path = try SakilaSQLite.copy()
    let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "data/demo.d2s"
      ).path
    let next = try WebFixtures.ruleFile(
      "task = 'list' AND entity.name = 'Film' => nextTask = 'edit'\n")
    let app = try WebApplication.open(path, rules: [demo, next])
    let anonymous = await app.get("/Film?order=title&limit=2")
    #expect(Page.links(anonymous.body).contains("/Film/1"), "no edit form for visitors")
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let list = await mike.get("/Film?order=title&limit=2")
    #expect(Page.links(list.body).contains("/Film/1/-/edit"))
    #expect(Page.links((await mike.get("/Actor?limit=2")).body).contains("/Actor/1"))
  }

  @Test(arguments: ShopFixture.kinds)
  func permissionsAreCheckedOnTheServer(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    let anonymous = WebClient(app)
    #expect(
      await anonymous.post("/Film/1/-/edit", [("_csrf", "x"), ("length", "1")]).status == 403)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(await mike.get("/Actor/1/-/edit").status == 403, "the demo rules: not PENELOPE")
    let form = await mike.get("/Actor/2/-/edit")
    #expect(form.status == 200)
    // A form re-aimed at another object.
    let aimed = await mike.post("/Actor/1/-/edit", Self.change(form.body, "lastName", to: "X"))
    #expect(aimed.status == 403)
    #expect(
      try db.stored("SELECT last_name, 0 FROM actor WHERE actor_id = 1") == "GUINESS|0")
    let (readOnly, _) = try Self.demo(kind, readOnly: true)
    let reader = WebClient(readOnly)
    await reader.login("Mike", "12345")
    #expect(await reader.get("/Film/1/-/edit").status == 403)
    #expect(!Page.links(await reader.get("/Film/1").body).contains("/Film/1/-/edit"))
  }

  @Test(arguments: ShopFixture.kinds)
  func aFailedLoginSaysOnlyThatAndNextStaysOnTheSite(kind: ShopFixture.Kind) async throws {
    let (app, _) = try Self.demo(kind)
    let browser = WebClient(app, address: "10.0.0.1")
    let wrong = await browser.login("Mike", "wrong")
    let unknown = await WebClient(app, address: "10.0.0.2").login("Nobody", "wrong")
    #expect(wrong.status == 401 && unknown.status == 401)
    #expect(wrong.body.contains("Login failed.") && unknown.body.contains("Login failed."))
    #expect(browser.cookies[WebSession.cookie] == nil)
    #expect(Page.unlabelledControls(wrong.body).isEmpty)
    for (index, next) in ["//evil.example/", "https://evil.example/", "/\\evil.example"]
      .enumerated()
    {
      try await Task.sleep(for: .milliseconds(300))
      let login = await WebClient(app, address: "10.0.1.\(index)").login(
        "Mike", "12345", next: next)
      #expect(login.header("Location") == "/", "\(next)")
    }
    let noToken = await WebClient(app).post("/-/login", [("user", "Mike"), ("password", "12345")])
    #expect(noToken.status == 403)
  }

  @Test(arguments: ShopFixture.kinds)
  func valuesAreEscapedInsideFormAttributes(kind: ShopFixture.Kind) async throws {
    let (app, db) = try Self.demo(kind)
    try db.execute(
      "UPDATE film SET title = '\"><script>alert(1)</script>' WHERE film_id = 2")
    let browser = WebClient(app)
    await browser.login("Mike", "12345")
    let form = await browser.get("/Film/2/-/edit")
    #expect(form.status == 200)
    #expect(!form.body.contains("<script>alert"))
    #expect(form.body.contains(#"value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#))
  }

  /// The server reads the time from its clock dependency: a test moves it in one line, and the
  /// session made at login has expired.
  @Test func sessionsExpireByTheServersClock() async throws {
    let (app, _) = try Self.demo()
    let browser = WebClient(app)
    #expect(await browser.login("Mike", "12345").status == 303)
    #expect(await browser.get("/Film/1/-/edit").status == 200)
    let later = Date().addingTimeInterval(SessionKeys.sessionLifetime + 60)
    let expired = await withDependencies {
      $0.clock = .fixed(later)
    } operation: {
      await browser.get("/Film/1/-/edit")
    }
    #expect(expired.status == 303)
    #expect(expired.header("Location") == "/-/login?next=%2FFilm%2F1%2F-%2Fedit")
    #expect(await browser.get("/Film/1/-/edit").status == 200, "the clock is back outside")
    // An application can be given its clock too: its sessions are over at once.
    let (stale, _) = try Self.demo()
    let pastApp = WebApplication(
      pages: stale.pageApplication, pool: stale.pool, databaseName: stale.databaseName,
      keys: stale.keys, dependencies: DependencyValues().with(\.clock, .fixed(later)))
    let visitor = WebClient(pastApp)
    visitor.cookies = browser.cookies
    #expect(await visitor.get("/Film/1/-/edit").status == 303)
  }
}

/// Deleting through the confirm page: the row's values travel with the form, so a delete of a
/// row changed since is a 409; the permission rules and the CSRF token apply as for edits.
@Suite struct WebDeletingTests {
  static func confirmFields(_ html: String) -> [(String, String)] {
    let start =
      html.range(of: "<form class=\"delete\"").map { String(html[$0.lowerBound...]) } ?? ""
    return Page.matches(#"<input type="hidden" name="([^"]*)" value="[^"]*">"#, in: start).map {
      name in
      let value =
        Page.matches(
          #"name="\#(NSRegularExpression.escapedPattern(for: name))" value="([^"]*)""#, in: start
        ).first ?? ""
      return (Page.unescape(name), Page.unescape(value))
    }
  }

  @Test(arguments: ShopFixture.kinds)
  func aConfirmedDeleteRemovesTheRowAndAStaleOneIsAConflict(kind: ShopFixture.Kind) async throws {
    let (app, db) = try WebEditingTests.demo(kind)
    try db.execute(
      """
      INSERT INTO actor (actor_id, first_name, last_name, last_update) VALUES (301, 'ZED', 'GONE', '2020-01-01 00:00:00');
      INSERT INTO actor (actor_id, first_name, last_name, last_update) VALUES (302, 'YVES', 'STAYS', '2020-01-01 00:00:00');
      """)
    let anonymous = WebClient(app)
    #expect(await anonymous.get("/Actor/301/-/delete").status == 303)
    #expect(await anonymous.post("/Actor/301/-/delete", [("_csrf", "x")]).status == 403)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    #expect(Page.links(await mike.get("/Actor/301").body).contains("/Actor/301/-/delete"))
    let confirm = await mike.get("/Actor/301/-/delete")
    #expect(confirm.status == 200)
    #expect(confirm.body.contains("ZED"))
    let fields = Self.confirmFields(confirm.body)
    #expect(await mike.post("/Actor/301/-/delete", Array(fields.dropFirst())).status == 403)
    let deleted = await mike.post("/Actor/301/-/delete", fields)
    #expect(deleted.status == 303)
    #expect(deleted.header("Location") == "/Actor")
    #expect(
      try db.stored("SELECT count(*), 0 FROM actor WHERE actor_id = 301")
        == "0|0")

    let stale = await mike.get("/Actor/302/-/delete")
    try db.execute(
      "UPDATE actor SET last_name = 'RENAMED' WHERE actor_id = 302")
    let conflict = await mike.post("/Actor/302/-/delete", Self.confirmFields(stale.body))
    #expect(conflict.status == 409)
    #expect(
      try db.stored("SELECT count(*), 0 FROM actor WHERE actor_id = 302")
        == "1|0")
    #expect(await mike.get("/Actor/1/-/delete").status == 403, "the demo rules: not PENELOPE")
    try db.execute(
      "UPDATE actor SET first_name = '\"><script>alert(1)</script>' WHERE actor_id = 302")
    let escaped = await mike.get("/Actor/302/-/delete")
    #expect(escaped.status == 200)
    #expect(!escaped.body.contains("<script>alert"))
    #expect(escaped.body.contains("&quot;&gt;&lt;script&gt;"))
  }
}

/// A test database of either kind: rows read back as text, scripts run.
struct TestBackend {
  let kind: ShopFixture.Kind
  let target: String

  /// The first row of `sql`, its values as text joined by `|`.
  func stored(_ sql: String) throws -> String { try ShopFixture.stored(kind, target, sql) }

  func execute(_ sql: String) throws {
    switch kind {
    case .sqlite: try SQLiteAdaptor(path: target).executeScript(sql)
    case .postgresql: try PostgreSQLAdaptor(url: target).executeScript(sql)
    }
  }

  /// The database, opened as the tests' own connection.
  func open() throws -> Database {
    switch kind {
    case .sqlite: try Database(adaptor: try SQLiteAdaptor(path: target))
    case .postgresql: try Database(adaptor: try PostgreSQLAdaptor(url: target))
    }
  }
}
