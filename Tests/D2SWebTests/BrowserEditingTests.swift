import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

/// Issues 42 and 43 in headless Chromium: a film's actors added and removed on the links page,
/// a new object made through tabs, pages that fit a 390-pixel phone, axe-core (from PyPI) over
/// eight pages finding no serious or critical violation, and an agent's proposal approved. Screenshots at 1280 and 390 pixels
/// go to the test's folder.
extension BrowserTests {
  /// The demo on a private Sakila, and a shop fixture whose Product form has tabs.
  struct Servers: Sendable {
    let demo: ChildProcess
    let shop: ChildProcess
    let demoBase: String
    let shopBase: String
    let sakila: String
    let shopDatabase: String
  }

  static func startServers(folder: URL) throws -> Servers {
    let sakila = try SakilaSQLite.copy()
    // A long unbroken value, which must not make a phone's page scroll sideways.
    try SQLiteAdaptor(path: sakila).executeScript(
      "UPDATE film SET description = '\(String(repeating: "Unbroken", count: 30))' WHERE film_id = 2"
    )
    let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("data/demo.d2s").path
    let demo = try ChildProcess(
      serveBinary.path, [sakila, "--rules", rules, "--port", "0"], folder: folder)
    let shopDatabase = try TestDatabases.sqliteFile(ShopFixture.sqlite, named: "shop")
    let tabs = try WebFixtures.ruleFile(SectionPageTests.tabRules)
    let shop = try ChildProcess(
      serveBinary.path, [shopDatabase, "--rules", tabs, "--port", "0"], folder: folder)
    func base(_ server: ChildProcess) throws -> String {
      guard let line = try server.waitForLine(prefix: "listening on ", seconds: 20) else {
        throw BrowserError("d2s-serve did not say where it listens")
      }
      return String(line.dropFirst("listening on ".count))
    }
    return Servers(
      demo: demo, shop: shop, demoBase: try base(demo), shopBase: try base(shop),
      sakila: sakila, shopDatabase: shopDatabase)
  }

  /// axe-core as the PyPI package `axe-selenium-python` ships it, fetched with pip into a
  /// virtual environment in `folder`.
  static func axeCore(in folder: URL) throws -> String {
    let environment = try PythonEnvironment.make(
      in: folder.appendingPathComponent("venv"), packages: [])
    let wheels = folder.appendingPathComponent("wheels").path
    try environment.pip([
      "download", "-q", "--no-deps", "axe-selenium-python==2.1.6", "-d", wheels,
    ])
    let script = folder.appendingPathComponent("axe.min.js").path
    try environment.run([
      "-c",
      """
      import glob, zipfile, sys
      wheel = zipfile.ZipFile(glob.glob(sys.argv[1] + '/*.whl')[0])
      name = [n for n in wheel.namelist() if n.endswith('axe.min.js')][0]
      open(sys.argv[2], 'wb').write(wheel.read(name))
      """, wheels, script,
    ])
    return try String(contentsOfFile: script, encoding: .utf8)
  }

  /// The serious and critical violations axe-core finds on the page the browser shows.
  static func violations(_ browser: WebDriver, axe: String) async throws -> [String] {
    _ = try await browser.execute(axe + "\nreturn true;")
    let found = try await browser.executeAsync(
      """
      const done = arguments[arguments.length - 1];
      axe.run(document, { resultTypes: ['violations'] }).then(results => done(
        results.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
          .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))))
        .catch(error => done(['axe failed: ' + error]));
      """)
    return found as? [String] ?? ["axe returned nothing"]
  }

  /// What does not fit the window: the page scrolling sideways, a table of properties
  /// scrolling sideways within itself, a form control reaching past the window's edge.
  static func overflows(_ browser: WebDriver) async throws -> [String] {
    try await browser.execute(
      """
      const width = window.innerWidth, found = [];
      if (document.documentElement.scrollWidth > width) found.push('the page');
      document.querySelectorAll('table.properties').forEach((table, i) => {
        if (table.scrollWidth > table.clientWidth + 1) found.push('properties table ' + i);
      });
      document.querySelectorAll('input, select, textarea').forEach(control => {
        const box = control.getBoundingClientRect();
        if (box.width > 0 && box.right > width + 1) found.push(control.name || control.id);
      });
      return found;
      """) as? [String] ?? ["no answer"]
  }

  /// Customer 1's last name as stored.
  static func lastName(_ database: String) throws -> String {
    var name = ""
    try SQLiteAdaptor(path: database).query(
      SQLStatement(raw: "SELECT last_name FROM customer WHERE customer_id = 1"), columns: [nil]
    ) { name = $0[0].stringValue ?? "" }
    return name
  }

  /// The actors of film 1 as `film_actor` stores them.
  static func actors(_ database: String) throws -> [Int] {
    var keys: [Int] = []
    try SQLiteAdaptor(path: database).query(
      SQLStatement(raw: "SELECT actor_id FROM film_actor WHERE film_id = 1 ORDER BY actor_id"),
      columns: [nil]
    ) { keys.append(Int($0[0].description) ?? -1) }
    return keys
  }

  @Test(.timeLimit(.minutes(4)))
  func linksTabsPhonesAndAccessibilityInChromium() async throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.serveBinary.path), "build d2s-serve first")
    let folder = try TestFolders.make("d2s-browser-editing")
    // Blocking work (pip, the servers' first lines) off the threads other tests share.
    let axe = try await offThePool { try Self.axeCore(in: folder) }
    let servers = try await offThePool { try Self.startServers(folder: folder) }
    defer {
      servers.demo.stop()
      servers.shop.stop()
    }
    let base = servers.demoBase
    let chromium = try await Chromium.start(folder: folder)
    defer { chromium.driver.stop() }
    let browser = chromium.browser
    var screenshots: [String] = []
    func shoot(_ name: String) async throws {
      let path = folder.appendingPathComponent(name + ".png")
      try await browser.screenshot().write(to: path)
      screenshots.append(path.path)
    }
    var violations: [String: [String]] = [:]
    func check(_ page: String) async throws {
      let found = try await Self.violations(browser, axe: axe)
      if !found.isEmpty { violations[page] = found }
    }
    do {
      try await browser.resize(width: 1280, height: 900)
      try await browser.open(base + "/-/login?next=%2FFilm%2F1%2Factors")
      try await check("login")
      try await browser.type("#f-user", "Mike")
      try await browser.type("#f-password", "12345")
      try await browser.click("form.login button")
      #expect(
        try await browser.waitForText("h1", "Actors of ACADEMY DINOSAUR")
          == "Actors of ACADEMY DINOSAUR")
      try await check("list")

      // Two actors added and one removed on the links page: film_actor holds exactly those.
      let before = try Self.actors(servers.sakila)
      try await browser.click("a[href='/Film/1/-/links/actors']")
      #expect(try await browser.waitForText("h2", "Linked (10)") == "Linked (10)")
      var added: [Int] = []
      for count in [11, 12] {
        let key =
          try await browser.execute(
            "return document.querySelector('ul.candidates input[name=add]').value;") as? String
        added.append(Int(key ?? "") ?? -1)
        try await browser.click("ul.candidates form button")
        #expect(try await browser.waitForText("h2", "Linked (\(count))") == "Linked (\(count))")
      }
      let removing =
        try await browser.execute(
          "return document.querySelector('ul.linked input[name=remove]').value;") as? String
      try await browser.click("ul.linked form button")
      #expect(try await browser.waitForText("h2", "Linked (11)") == "Linked (11)")
      try await shoot("links-1280")
      let removed = Int(removing ?? "") ?? -1
      #expect((before + added).contains(removed))
      #expect(
        try Self.actors(servers.sakila) == (before + added).filter { $0 != removed }.sorted())

      try await browser.open(base + "/Film/1")
      try await shoot("inspect-1280")
      try await check("inspect")
      try await browser.open(base + "/Film/1/-/edit")
      try await shoot("edit-1280")
      try await check("edit")
      try await browser.open(base + "/Film/-/new")
      try await check("new")
      try await browser.open(base + "/Film/1/-/choose/language")
      try await check("choose")
      try await browser.open(base + "/Film/10/-/delete")
      try await check("delete")
      // The 409 page: the row changed behind the open form.
      try await browser.open(base + "/Film/1/-/edit")
      try await browser.type("#f-length", "99")
      try SQLiteAdaptor(path: servers.sakila).executeScript(
        "UPDATE film SET length = 42 WHERE film_id = 1")
      try await browser.click("form.edit button[type='submit']")
      #expect(try await browser.waitForText("h1", "Changed meanwhile") == "Changed meanwhile")
      try await check("409")
      // The checker can fail: an image without a text alternative is a critical violation.
      _ = try await browser.execute(
        "document.body.insertAdjacentHTML('beforeend', '<img src=\"/x.png\">'); return true;")
      #expect(try await Self.violations(browser, axe: axe).contains { $0.hasPrefix("image-alt") })

      // A phone: nothing scrolls sideways, a long unbroken value included.
      try await browser.resize(width: 390, height: 844)
      for (name, path) in [
        ("inspect-390", "/Film/2"), ("edit-390", "/Film/2/-/edit"), ("list-390", "/Film"),
        ("links-390", "/Film/1/-/links/actors"),
      ] {
        try await browser.open(base + path)
        #expect(try await Self.overflows(browser) == [], "\(path) at 390 px")
        try await shoot(name)
      }

      // An agent's proposal, approved by a person in the browser, is saved.
      try await browser.resize(width: 1280, height: 900)
      try await browser.open(base + "/-/tokens")
      try await browser.type("#f-label", "chromium agent")
      try await browser.click("#f-scope option[value='propose']")
      try await browser.click("form.edit button[type='submit']")
      let made = "Made. Copy the token now: it is not shown again."
      #expect(try await browser.waitForText("p.saved", made) == made)
      let madeToken = try await browser.text("code.token")
      #expect(madeToken.hasPrefix("d2s_"))
      let call = try LoopbackHTTP.request(
        "POST", base + "/-/mcp",
        body: Data(
          #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"edit","arguments":{"entity":"Customer","key":1,"values":{"lastName":"SMYTHE"},"seen":{"lastName":"SMITH"}}}}"#
            .utf8), headers: [("Authorization", "Bearer " + madeToken)])
      let proposal = try #require(
        call.text.range(
          of: #"http://[^"]*/-/proposals/[A-Za-z0-9_-]+"#, options: .regularExpression
        )
        .map { String(call.text[$0]) }, "\(call.text)")
      #expect(try Self.lastName(servers.sakila) == "SMITH", "nothing before a person decides")
      try await browser.open(proposal)
      try await check("proposal")
      try await shoot("proposal-1280")
      try await browser.click("button[value='approve']")
      #expect(try await browser.waitForText("h1", "SMYTHE") == "SMYTHE")
      #expect(try Self.lastName(servers.sakila) == "SMYTHE", "approved and saved")

      // A new product through its two tabs: one POST saves both tabs' values.
      try await browser.resize(width: 1280, height: 900)
      let shop = servers.shopBase
      try await browser.open(shop + "/-/login?next=%2FProduct%2F-%2Fnew")
      try await browser.type("#f-user", "ann")
      try await browser.type("#f-password", "secret")
      try await browser.click("form.login button")
      #expect(try await browser.waitForText("legend", "Basics") == "Basics")
      try await browser.type("#f-code", "T9")
      try await browser.type("#f-name", "Made in tabs")
      try await browser.click("nav.tabs a[href='#tab-2']")
      try await browser.type("#f-stock", "6")
      try await shoot("tabs-1280")
      try await browser.click("form.edit button[type='submit']")
      #expect(try await browser.waitForText("h1", "Made in tabs") == "Made in tabs")
      var row = ""
      try SQLiteAdaptor(path: servers.shopDatabase).query(
        SQLStatement(raw: "SELECT name, stock FROM product WHERE code = 'T9'"),
        columns: [nil, nil]
      ) { row = $0.map { $0.stringValue ?? $0.description }.joined(separator: "|") }
      #expect(row == "Made in tabs|6")
    } catch {
      try? await browser.quit()
      throw error
    }
    try await browser.quit()
    print("browser screenshots:\n" + screenshots.joined(separator: "\n"))
    #expect(violations.isEmpty, "axe-core: \(violations)")
  }
}
