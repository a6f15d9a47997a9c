import D2SApplication
import D2SModel
import D2STesting
import Foundation
import RuleCore
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Direct to Web's WebAssistant in d2s-serve (`--rules-output FILE`): a rule typed on an
/// explanation page is previewed, then saved to the output file with a comment naming who and
/// when, and undone byte for byte; an ambiguous rule, one reading a password, a user without
/// `mayEditRules`, an anonymous visitor and a form without its CSRF token change nothing.
@Suite struct RuleAssistantTests {
  static let granting = """
    user.username = 'Mike' => mayExplain = true
    user.username = 'Mike' => mayEditRules = true
    """

  /// The demo with Mike allowed to explain and change rules; the app, the database and the
  /// output file.
  static func app() throws -> (WebApplication, String, String) {
    let path = try SakilaSQLite.copy()
    let folder = SakilaSQLite.copies.appendingPathComponent(
      "assistant-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let output = folder.appendingPathComponent("assistant.d2s").path
    let app = try WebApplication.open(
      path, rules: [WebEditingTests.demoRules, try WebFixtures.ruleFile(granting)],
      rulesOutput: output)
    return (app, path, output)
  }

  static func csrf(_ html: String) -> String {
    Page.matches(#"name="_csrf" value="([^"]*)""#, in: html).first ?? ""
  }

  static let movies = "entity.name = 'Film' => displayNameForEntity = 'Movies'"

  @Test func aRuleIsPreviewedSavedShownAndUndone() async throws {
    let (app, _, output) = try Self.app()
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "", "made empty")
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let why = await mike.get("/-/why?page=%2FFilm")
    #expect(why.status == 200)
    #expect(why.body.contains(#"<form class="rule""#))
    #expect(
      why.body.contains(
        HTML.formValue("entity.name = 'Film' => displayNameForEntity = 'Film'")))
    let token = Self.csrf(why.body)
    let form = [("_csrf", token), ("page", "/Film"), ("rule", Self.movies)]

    let preview = await mike.post("/-/rules", form + [("action", "preview")])
    #expect(preview.status == 200)
    #expect(
      preview.body.contains(HTML.escape("displayNameForEntity: 'Film' → 'Movies'")),
      "\(preview.body.prefix(2000))")
    #expect(preview.body.contains("Save the rule"))
    #expect(preview.body.contains("<h2>With the rule</h2>\n<pre class=\"page\">Movies\n"))
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "", "a preview saves nothing")

    let saved = await mike.post("/-/rules", form + [("action", "save")])
    #expect(saved.body.contains(HTML.escape("Added at \(output):2: \(Self.movies)")))
    let text = try String(contentsOfFile: output, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3 && lines[2].isEmpty)
    #expect(lines[0].hasPrefix("# added from a page by Mike Hillyer at 20"))
    #expect(lines[1] == Self.movies[...])
    let parser = try D2SApp().context.engine.parser
    #expect("\(try parser.parseRule(String(lines[1])))" == Self.movies, "parses back")
    #expect((await mike.get("/Film")).body.contains("<h1>Movies"), "reloaded at once")

    // Lint first: a rule that shadows the saved one, or is ambiguous with it, is refused.
    func refusal(_ rule: String) async -> String {
      let answer = await mike.post(
        "/-/rules", [("_csrf", token), ("page", "/Film"), ("rule", rule), ("action", "save")])
      return Page.matches(#"role="status">([^<]*)<"#, in: answer.body).first ?? ""
    }
    let shadowing = await refusal("entity.name = 'Film' => displayNameForEntity = 'Films'")
    #expect(shadowing.hasPrefix("Not saved: lint: rule 19 can never win: rule 20"), "\(shadowing)")
    let ambiguous = await refusal("task = 'list' => displayNameForEntity = 'Lists'")
    #expect(ambiguous.hasPrefix("Not saved: lint:") && ambiguous.contains("ambiguous"))
    #expect(try String(contentsOfFile: output, encoding: .utf8) == text)

    let undone = await mike.post(
      "/-/rules", [("_csrf", token), ("page", "/Film"), ("action", "undo")])
    #expect(undone.body.contains(HTML.escape("Removed: \(Self.movies)")))
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "", "byte for byte")
    #expect((await mike.get("/Film")).body.contains("<h1>Film"))
  }

  @Test func whatMayNotChangeTheRulesChangesNothing() async throws {
    let (app, path, output) = try Self.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let token = Self.csrf((await mike.get("/-/why?page=%2FFilm")).body)
    let password = await mike.post(
      "/-/rules",
      [
        ("_csrf", token), ("page", "/Film"), ("action", "save"),
        ("rule", "user.password = 'x' => mayExplain = false"),
      ])
    #expect(password.body.contains("may not read a password"))
    let two = await mike.post(
      "/-/rules",
      [
        ("_csrf", token), ("page", "/Film"), ("action", "save"),
        ("rule", Self.movies + "\n*true* => mayEditRules = true"),
      ])
    #expect(two.body.contains("one rule on one line"))
    #expect(
      await mike.post("/-/rules", [("page", "/Film"), ("action", "save"), ("rule", Self.movies)])
        .status == 403, "no CSRF token")
    let anonymous = WebClient(app)
    #expect(
      await anonymous.post("/-/rules", [("page", "/Film"), ("rule", Self.movies)]).status == 403)
    try LinkEditingTests.givePasswordToJon(TestBackend(kind: .sqlite, target: path))
    let jon = WebClient(app)
    await jon.login("Jon", "12345")
    let jonToken = Self.csrf((await jon.get("/Film/1")).body)
    #expect(
      await jon.post(
        "/-/rules",
        [("_csrf", jonToken), ("page", "/Film"), ("action", "save"), ("rule", Self.movies)]
      ).status == 403)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "")
  }

  @Test func theFileIsRestoredByteForByteAndNamesAreCommentSafe() throws {
    let folder = SakilaSQLite.copies.appendingPathComponent(
      "output-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("rules.d2s").path
    for original in ["", "a = 1 => b = 2", "a = 1 => b = 2\n", "# note\n\n"] {
      try original.write(toFile: path, atomically: true, encoding: .utf8)
      let file = RulesOutputFile(path: path)
      _ = try file.append("c = 3 => d = 4", by: "Mike\n*true* => mayEditRules = true #", at: Date())
      let written = try String(contentsOfFile: path, encoding: .utf8)
      #expect(!written.contains("\n*true*"), "a name cannot add a line")
      #expect(try file.undoLast() == "c = 3 => d = 4")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }
    try "x = 1 => y = 2\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: AssistantError.self) { try RulesOutputFile(path: path).undoLast() }
  }
}

/// What the review of the assistant found, each a test first: a password read through
/// `propertyValue` or a column's name, a grant of `mayEditRules` on one page used for rules of
/// every page, and a password shown in an explanation.
@Suite struct RuleAssistantHardeningTests {
  @Test func noRuleReadsAPasswordByAnyName() async throws {
    let (app, _, output) = try RuleAssistantTests.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let token = RuleAssistantTests.csrf((await mike.get("/-/why?page=%2FFilm")).body)
    for rule in [
      "propertyKey = 'password' => displayNameForProperty = propertyValue",
      "propertyKey = 'password' => displayNameForProperty = @propertyValue",
      "propertyValue like 'a*' => mayExplain = true",
      "user.password = 'x' => mayExplain = true",
    ] {
      let answer = await mike.post(
        "/-/rules",
        [("_csrf", token), ("page", "/Staff/1"), ("action", "preview"), ("rule", rule)])
      #expect(answer.body.contains("may not read a password"), "\(rule)")
    }
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "")
  }

  @Test func aGrantOnOnePageIsNoGrant() async throws {
    let path = try SakilaSQLite.copy()
    let folder = SakilaSQLite.copies.appendingPathComponent(
      "assistant-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let output = folder.appendingPathComponent("assistant.d2s").path
    let grant = """
      user.username = 'Mike' => mayExplain = true
      user.username = 'Mike' AND entity.name = 'Film' => mayEditRules = true
      """
    let app = try WebApplication.open(
      path, rules: [WebEditingTests.demoRules, try WebFixtures.ruleFile(grant)],
      rulesOutput: output)
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let why = await mike.get("/-/why?page=%2FFilm")
    #expect(!why.body.contains(#"<form class="rule""#))
    let answer = await mike.post(
      "/-/rules",
      [
        ("_csrf", RuleAssistantTests.csrf(why.body)), ("page", "/Film"), ("action", "save"),
        ("rule", "*true* => mayEditRules = true"),
      ])
    #expect(answer.status == 403)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "")
  }

  @Test func anExplanationNeverShowsAPassword() async throws {
    let (app, _, _) = try RuleAssistantTests.app()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let why = await mike.get(
      "/-/why?page=%2FStaff%2F1&property=password&key=propertyValue&format=json")
    // A password is no property a page names; were it one, its value would be masked.
    #expect(why.status == 404 || why.body.contains("(a password, not shown)"))
    #expect(!why.body.contains("8cb2237d0679ca88db6464eac60da96345513964"))
  }
}

/// The masking itself, where the terminal would show a password: an explanation on a password's
/// property, and a rule whose condition reads one.
@Suite struct PasswordMaskTests {
  @Test func explanationsMaskAPasswordsValue() throws {
    var app = try D2SApp()
    try app.open(try SakilaSQLite.copy())
    try app.addRule("user.password = 'x' => mayExplain = true")
    var context = app.context
    let staff = try #require(try context.database?.fetchObject("Staff", primaryKey: [.int(1)]))
    context.task = "inspect"
    context.entity = staff.entity
    context.object = staff
    context.user = staff
    let value = try KeyExplanation(
      keyNamed: "propertyValue", in: context.with(\.propertyKey, "password"))
    #expect(value.value == "(a password, not shown)")
    #expect(!value.json.contains("8cb2237d"))
    let rule = try KeyExplanation(keyNamed: "mayExplain", in: context)
    let actual = rule.candidates.first.map { $0.actual.map(\.value) } ?? []
    #expect(actual == ["(a password, not shown)"])
    let whyNot = try context.whyNot(try context.engine.rule(labelled: "1"))
    let described = PasswordPaths.description(of: whyNot, in: context.database?.model)
    #expect(described.contains("(a password, not shown)") && !described.contains("8cb2237d"))
  }
}

/// The explanation and assistant pages escape what they show: a row's title, a typed rule,
/// the rule's value in the preview.
@Suite struct ExplainEscapingTests {
  @Test func markupInATitleAndATypedRuleIsShownAsText() async throws {
    let (app, path, _) = try RuleAssistantTests.app()
    try SQLiteAdaptor(path: path).executeScript(
      "UPDATE film SET title = '<b>BOLD</b>' WHERE film_id = 1")
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    let why = await mike.get("/-/why?page=%2FFilm%2F1&property=title")
    #expect(why.status == 200)
    #expect(why.body.contains("&lt;b&gt;BOLD&lt;/b&gt;") && !why.body.contains("<b>BOLD"))
    let preview = await mike.post(
      "/-/rules",
      [
        ("_csrf", RuleAssistantTests.csrf(why.body)), ("page", "/Film/1"), ("action", "preview"),
        ("rule", "entity.name = 'Film' => displayNameForEntity = '<i>x</i>'"),
      ])
    #expect(preview.status == 200)
    #expect(preview.body.contains("&lt;i&gt;x&lt;/i&gt;") && !preview.body.contains("<i>x"))
  }
}
