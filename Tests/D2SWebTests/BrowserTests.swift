import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

/// A real browser (Debian's headless Chromium, driven by chromedriver over the WebDriver
/// protocol) against the built `d2s-serve`: the entity list, a list, a filter, the next page
/// and an inspect page, with a screenshot of each step in the test's folder. A machine
/// without the browser fails this test: `make deps` installs it.
@Suite(.serialized) struct BrowserTests {
  static var serveBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("d2s-serve")
  }

  @Test(.timeLimit(.minutes(3)))
  func browseFilterPageAndInspectInChromium() async throws {
    let chromium = try #require(
      ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "Chromium is not installed (make deps installs Debian's chromium)")
    let driverPath = "/usr/bin/chromedriver"
    try #require(
      FileManager.default.isExecutableFile(atPath: driverPath),
      "chromedriver is not installed (make deps installs Debian's chromium-driver)")
    try #require(
      FileManager.default.fileExists(atPath: Self.serveBinary.path), "build d2s-serve first")

    let folder = try TestFolders.make("d2s-browser")
    let database = try SakilaSQLite.copy()
    try SQLiteAdaptor(path: database).executeScript(
      """
      INSERT INTO actor (actor_id, first_name, last_name, last_update)
        VALUES (301, 'ZED', 'GONE', '2020-01-01 00:00:00')
      """)
    let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("data/demo.d2s").path
    let server = try ChildProcess(
      Self.serveBinary.path, [database, "--rules", rules, "--port", "0"], folder: folder)
    defer { server.stop() }
    let base = try #require(
      try server.waitForLine(prefix: "listening on ", seconds: 20).map {
        String($0.dropFirst("listening on ".count))
      }, "d2s-serve did not say where it listens")

    let driverPort = try FreePort.pick()
    let driver = try ChildProcess(driverPath, ["--port=\(driverPort)"], folder: folder)
    defer { driver.stop() }
    let browser = try await WebDriver.start(
      port: driverPort, chromium: chromium, profile: folder.appendingPathComponent("profile").path)
    var screenshots: [String] = []
    func shoot(_ name: String) async throws {
      let path = folder.appendingPathComponent(name + ".png")
      try await browser.screenshot().write(to: path)
      screenshots.append(path.path)
    }
    do {
      try await browser.open(base + "/")
      try await shoot("1-entities")
      #expect(try await browser.text("h1").isEmpty == false)
      try await browser.click("a[href='/Film']")
      #expect(try await browser.waitForText("h1", "Film") == "Film")
      try await shoot("2-list")

      try await browser.type("#f-where", "title like 'A*'")
      try await browser.type("#f-order", "title")
      try await browser.type("#f-limit", "5")
      try await browser.click("form.filter button")
      #expect(try await browser.waitForText("p.total", "1–5 of 46 Film") == "1–5 of 46 Film")
      #expect(try await browser.text("tbody tr td a") == "ACADEMY DINOSAUR")
      try await shoot("3-filtered")

      try await browser.click("a[rel='next']")
      #expect(try await browser.waitForText("p.total", "6–10 of 46 Film") == "6–10 of 46 Film")
      let row = try await browser.text("tbody tr td a")
      #expect(row == "AGENT TRUMAN")
      try await shoot("4-next")

      try await browser.click("tbody tr td a")
      #expect(try await browser.waitForText("h1", row) == row)
      try await shoot("5-inspect")

      // Log in, edit a film's replacement cost through the form, and see it saved.
      try await browser.click("nav.account a")
      #expect(try await browser.waitForText("h1", "Log in") == "Log in")
      try await browser.type("#f-user", "Mike")
      try await browser.type("#f-password", "12345")
      try await shoot("6-login")
      try await browser.click("form.login button")
      #expect(try await browser.waitForText("span.user", "Mike Hillyer") == "Mike Hillyer")
      try await browser.open(base + "/Film/1")
      try await browser.click("a[href='/Film/1/-/edit']")
      #expect(try await browser.waitForText("h1", "ACADEMY DINOSAUR") == "ACADEMY DINOSAUR")
      try await browser.type("#f-replacementCost", "$19.99")
      try await shoot("7-edit")
      try await browser.click("form.edit button[type='submit']")
      #expect(try await browser.waitForText("p.buttons a", "Edit") == "Edit")
      try await shoot("8-saved")
      var stored = ""
      try SQLiteAdaptor(path: database).query(
        SQLStatement(raw: "SELECT replacement_cost FROM film WHERE film_id = 1"), columns: [nil]
      ) { stored = $0[0].description }
      #expect(stored == "19.99", "the database holds what the form saved")

      // A second session saves the same film while the first has its form open: the first
      // save is a conflict, and keeping its values saves them over the current row.
      try await browser.open(base + "/Film/1/-/edit")
      try await browser.type("#f-replacementCost", "$17.99")
      let second = folder.appendingPathComponent("9-second-session-saved.png")
      try await Self.saveFromSecondSession(
        base: base, port: driverPort, chromium: chromium,
        profile: folder.appendingPathComponent("profile-2").path, screenshot: second)
      screenshots.append(second.path)
      #expect(try Self.cost(database) == "15.99")
      try await browser.click("form.edit button[type='submit']")
      #expect(try await browser.waitForText("h1", "Changed meanwhile") == "Changed meanwhile")
      try await shoot("10-conflict")
      #expect(try Self.cost(database) == "15.99", "nothing is written until the user chooses")
      try await browser.click("form.edit button[type='submit']")
      #expect(try await browser.waitForText("p.buttons a", "Edit") == "Edit")
      try await shoot("11-kept")
      #expect(try Self.cost(database) == "17.99")

      // Deleting through the confirm page.
      try await browser.open(base + "/Actor/301")
      try await browser.click("a[href='/Actor/301/-/delete']")
      #expect(try await browser.waitForText("h1", "Delete ZED GONE?") == "Delete ZED GONE?")
      try await shoot("12-delete")
      try await browser.click("form.delete button")
      #expect(try await browser.waitForText("h1", "Moviestars") == "Moviestars")
      try await shoot("13-deleted")
      var count = ""
      try SQLiteAdaptor(path: database).query(
        SQLStatement(raw: "SELECT count(*) FROM actor WHERE actor_id = 301"), columns: [nil]
      ) { count = $0[0].description }
      #expect(count == "0")

      // A new film, its language chosen: the form shows every field the rules give it.
      try await browser.open(base + "/Film")
      try await browser.click("a[href='/Film/-/new']")
      try await browser.type("#f-title", "MADE IN CHROMIUM")
      try await browser.click("#f-language option[value='2']")
      try await shoot("14-new")
      try await browser.click("form.edit button[type='submit']")
      #expect(
        try await browser.waitForText("h1", "MADE IN CHROMIUM") == "MADE IN CHROMIUM")
      try await shoot("15-created")
      var made = ""
      try SQLiteAdaptor(path: database).query(
        SQLStatement(
          raw: "SELECT language_id, rental_duration FROM film WHERE title = 'MADE IN CHROMIUM'"),
        columns: [nil, nil]
      ) { made = $0.map(\.description).joined(separator: "|") }
      #expect(made == "2|3", "Italian, and the column's default for what the form left empty")

      // The query page: a title that contains, a length range and a rating make the filter
      // the list shows, and the list holds exactly its rows.
      try await browser.open(base + "/Film")
      try await browser.click("a.query")
      #expect(try await browser.waitForText("h1", "Search Film") == "Search Film")
      try await browser.type("#q0", "an")
      try await browser.type("#q2-from", "60")
      try await browser.type("#q2-to", "120")
      try await browser.click("#q4 option[value=\"'PG'\"]")
      try await shoot("16-query")
      try await browser.click("form.query button")
      #expect(try await browser.waitForText("h1", "Film") == "Film")
      try await shoot("17-queried")
      let filter = try await browser.value("#f-where")
      #expect(filter == "title ilike '*an*' and length >= 60 and length <= 120 and rating = 'PG'")
      var expected: [String] = []
      try SQLiteAdaptor(path: database).query(
        SQLStatement(
          raw:
            "SELECT title FROM film WHERE title LIKE '%an%' AND length BETWEEN 60 AND 120 AND rating = 'PG' ORDER BY film_id"
        ), columns: [nil]
      ) { expected.append($0[0].stringValue ?? "") }
      let shown = try await browser.text("tbody")
      #expect(!expected.isEmpty)
      #expect(shown.split(separator: "\n").count == expected.count, "\(shown)")
      for title in expected { #expect(shown.contains(title)) }
      #expect(try await browser.text("p.total").hasPrefix("\(expected.count) "))
    } catch {
      try? await browser.quit()
      throw error
    }
    try await browser.quit()
    print("browser screenshots:\n" + screenshots.joined(separator: "\n"))
    #expect(screenshots.count == 17)
  }

  /// The replacement cost of film 1 as stored.
  static func cost(_ database: String) throws -> String {
    var stored = ""
    try SQLiteAdaptor(path: database).query(
      SQLStatement(raw: "SELECT replacement_cost FROM film WHERE film_id = 1"), columns: [nil]
    ) { stored = $0[0].description }
    return stored
  }

  /// Another browser session logs in and saves film 1's replacement cost as $15.99.
  static func saveFromSecondSession(
    base: String, port: Int, chromium: String, profile: String, screenshot: URL
  ) async throws {
    let second = try await WebDriver.start(port: port, chromium: chromium, profile: profile)
    do {
      try await second.open(base + "/-/login?next=%2FFilm%2F1%2F-%2Fedit")
      try await second.type("#f-user", "Mike")
      try await second.type("#f-password", "12345")
      try await second.click("form.login button")
      #expect(try await second.waitForText("h1", "ACADEMY DINOSAUR") == "ACADEMY DINOSAUR")
      try await second.type("#f-replacementCost", "$15.99")
      try await second.click("form.edit button[type='submit']")
      #expect(try await second.waitForText("p.buttons a", "Edit") == "Edit")
      try await second.screenshot().write(to: screenshot)
    } catch {
      try? await second.quit()
      throw error
    }
    try await second.quit()
  }
}
