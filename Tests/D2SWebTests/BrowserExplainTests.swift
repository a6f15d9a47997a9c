import D2SModel
import D2STesting
import Foundation
import Testing

/// Issue "Why is this field here?" in headless Chromium, against two built `d2s-serve`
/// processes sharing one `--rules-output` file: Mike opens a film with `?explain=1`, follows
/// "why?" beside Rental Duration and reads the rule that chose its component and the ones that
/// lost; then changes Film's display name from the list's explanation (preview, save): the
/// file holds the one rule, this server shows it at once and the other within two seconds;
/// Undo restores the file byte for byte.
extension BrowserTests {
  @Test(.timeLimit(.minutes(3)))
  func explainAndChangeARuleFromThePageInChromium() async throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.serveBinary.path), "build d2s-serve first")
    let folder = try TestFolders.make("d2s-browser-explain")
    let database = try SakilaSQLite.copy()
    let granting = try WebFixtures.ruleFile(RuleAssistantTests.granting)
    let output = folder.appendingPathComponent("assistant.d2s").path
    let arguments = [
      database, "--rules", WebEditingTests.demoRules, "--rules", granting, "--rules-output",
      output, "--port", "0",
    ]
    let (first, second) = try await offThePool {
      (
        try ServeBinaryTests.start(arguments, folder: folder),
        try ServeBinaryTests.start(arguments, folder: folder)
      )
    }
    defer {
      first.0.stop()
      second.0.stop()
    }
    let (base, other) = (first.1, second.1)
    let chromium = try await Chromium.start(folder: folder)
    let browser = chromium.browser
    /// Polls `other`'s Film list (anonymous, over HTTP) for its title, at most 15 seconds (its
    /// watcher looks every 500 ms, on two cores shared with the rest of the suite).
    func otherShows(_ title: String) async throws -> Bool {
      for _ in 0..<150 {
        let page = try await offThePool { try LoopbackHTTP.request("GET", other + "/Film") }
        if page.text.contains("<h1>\(title)") { return true }
        try await Task.sleep(for: .milliseconds(100))
      }
      return false
    }
    /// The status line once it begins with `prefix` (the page after a click may still be
    /// loading), or its last text after 10 s.
    func status(_ prefix: String) async throws -> String {
      var last = ""
      for _ in 0..<50 {
        if let text = try? await browser.text("p.saved") {
          last = text
          if text.hasPrefix(prefix) { return text }
        }
        try await Task.sleep(for: .milliseconds(200))
      }
      return last
    }
    do {
      try await browser.resize(width: 1280, height: 900)
      try await browser.open(base + "/-/login?next=%2FFilm%2F1%3Fexplain%3D1")
      try await browser.type("#f-user", "Mike")
      try await browser.type("#f-password", "12345")
      try await browser.click("form.login button")
      _ = try await browser.waitForText("h1", "ACADEMY DINOSAUR why?")
      try await browser.click("a.why[href*='property=rentalDuration']")
      let title = try await browser.waitForText(
        "h1", "Why is Rental Duration on ACADEMY DINOSAUR as it is?")
      #expect(title == "Why is Rental Duration on ACADEMY DINOSAUR as it is?")
      let explanation = try await browser.text("main")
      #expect(explanation.contains("component = 'DisplayNumber'"))
      #expect(explanation.contains("builtin rule 28: attribute.valueType in"))
      #expect(explanation.contains("\(WebEditingTests.demoRules):10"), "a rule's file and line")
      #expect(explanation.contains("(here attribute.valueType = 'Int')"), "why one lost")
      try await browser.screenshot().write(to: folder.appendingPathComponent("why.png"))

      // Film's display name, changed from the list's own explanation.
      try await browser.open(base + "/Film?explain=1")
      try await browser.click("h1 a.why")
      _ = try await browser.waitForText("h1", "Why is the page Film as it is?")
      _ = try await browser.execute(
        """
        const section = [...document.querySelectorAll('section.why')]
          .find(s => s.querySelector('h2').textContent.startsWith('displayNameForEntity'));
        section.querySelector('input.rule').value =
          "entity.name = 'Film' => displayNameForEntity = 'Movies'";
        section.querySelector('button[value=preview]').click();
        return true;
        """)
      #expect(try await browser.waitForText("h1", "Change the rules") == "Change the rules")
      #expect(
        try await browser.text("ul.changes").contains("displayNameForEntity: 'Film' → 'Movies'"))
      try await browser.screenshot().write(to: folder.appendingPathComponent("preview.png"))
      #expect(try String(contentsOfFile: output, encoding: .utf8) == "", "a preview writes nothing")
      try await browser.click("button[value=save]")
      #expect(try await status("Added at").hasPrefix("Added at \(output):2:"))
      let saved = try String(contentsOfFile: output, encoding: .utf8)
      #expect(saved.hasSuffix("\nentity.name = 'Film' => displayNameForEntity = 'Movies'\n"))
      try await browser.open(base + "/Film")
      #expect(try await browser.waitForText("h1", "Movies") == "Movies")
      #expect(try await otherShows("Movies"), "the other server reloads the file")

      try await browser.open(base + "/-/why?page=%2FFilm")
      try await browser.click("button[value=undo]")
      #expect(try await status("Removed:").hasPrefix("Removed:"))
      #expect(try String(contentsOfFile: output, encoding: .utf8) == "", "byte for byte")
      #expect(try await otherShows("Film"))
    } catch {
      try? await browser.screenshot().write(to: folder.appendingPathComponent("failed.png"))
      await chromium.stop()
      throw error
    }
    await chromium.stop()
  }
}
