import EnvKeys
import Foundation
import Qualifiers
import Testing

@testable import RuleCore

@Suite struct RuleParserTests {
  let parser = RuleParser(registry: TestRegistry.make())

  /// SPEC §3's example rules are canonical: each prints back as the same line.
  static let specExamples = [
    "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'",
    "propertyKey = 'rating' AND task = 'edit' => component = 'EditRating'",
    "*true* => displayNameForProperty = attribute.name",
    "task = 'list' AND entity.name = 'Customer' => displayPropertyKeys = ('firstName', 'address.phone')",
    "user.username = 'Mike' AND object.firstName = 'PENELOPE' => isObjectEditable = false ; high",
    "task = 'list' => nextTask = 'inspect' ; low",
    "*true* => visibleEntityNames = ('Customer', 'Actor', 'Film', 'Store', 'Staff')",
  ]

  @Test(arguments: specExamples)
  func specExamplesPrintBackIdentically(line: String) throws {
    let rule = try parser.parseRule(line)
    #expect(rule.description == line)
    #expect(try parser.parseRule(rule.description) == rule)
  }

  /// The examples resolve as SPEC §3 states.
  @Test func specExamplesResolveAsStated() throws {
    let registry = TestRegistry.make()
    let ctx = try context(Self.specExamples.joined(separator: "\n"), registry: registry)
    #expect(ctx.with(Keys.Entity.self, TestEntity("Actor")).displayNameForEntity == "Moviestars")
    #expect(ctx.with(Keys.Entity.self, TestEntity("Film")).displayNameForEntity == "")
    #expect(ctx.with(\.propertyKey, "rating").with(\.task, "edit").component == "EditRating")
    #expect(ctx.with(\.propertyKey, "rating").with(\.task, "list").component == "")
    #expect(
      ctx.with(Keys.Attribute.self, TestEntity("lastName")).displayNameForProperty == "lastName")
    let customers = ctx.with(\.task, "list").with(Keys.Entity.self, TestEntity("Customer"))
    #expect(customers.displayPropertyKeys == ["firstName", "address.phone"])
    #expect(customers.nextTask == "inspect")
    let mike = Person("Mike", "Hillyer")
    mike.username = "Mike"
    let penelope = ctx.with(Keys.User.self, mike).with(
      Keys.Object.self, Person("PENELOPE", "GUINESS"))
    #expect(try penelope.explain(keyNamed: "isObjectEditable").winner?.rule.rule.priority == .high)
    #expect(penelope[Keys.IsObjectEditable.self] == false)
    #expect(ctx[Keys.VisibleEntityNames.self] == ["Customer", "Actor", "Film", "Store", "Staff"])
  }

  @Test func partsOfARule() throws {
    let rule = try parser.parseRule(
      "user.firstName = 'Mike' AND object.firstName = 'PENELOPE' => isObjectEditable = false ; high"
    )
    #expect(rule.key.name == "isObjectEditable")
    #expect(rule.value == .constant(.bool(false)))
    #expect(rule.priority == .high)
    #expect(rule.complexity == 2)
    #expect(rule.constantValue as? Bool == false)
  }

  @Test(
    arguments: [
      ("title = 'x'", "*true* => title = 'x'"),
      ("*true* => title <= 'x'", "*true* => title = 'x'"),
      (
        "task = 'a' and propertyKey = 'b' => title = 'x'",
        "task = 'a' AND propertyKey = 'b' => title = 'x'"
      ),
      ("task == \"edit\" => title = \"it's\"", "task = 'edit' => title = 'it\\'s'"),
      ("task = 'edit' => title = 'x' ; very high", "task = 'edit' => title = 'x' ; veryHigh"),
      ("task = 'edit' => title = 'x' ; VeryLow", "task = 'edit' => title = 'x' ; veryLow"),
      ("task = 'edit' => title = 'x' ; default", "task = 'edit' => title = 'x'"),
      ("task = 'edit' => title = 'x' ; 150", "task = 'edit' => title = 'x' ; high"),
      ("task = 'edit' => title = 'x' ; 42", "task = 'edit' => title = 'x' ; 42"),
      ("task = 'edit' => title = 'x' ; -3", "task = 'edit' => title = 'x' ; -3"),
      ("task = 'a;b' => title = 'x;y' ; low", "task = 'a;b' => title = 'x;y' ; low"),
      (
        "task = 'a' => readOnlyEntityNames = ['Staff'] // comment",
        "task = 'a' => readOnlyEntityNames = ('Staff')"
      ),
      ("*true* => price = 20.99 # comment", "*true* => price = 20.99"),
      ("*true* => price = 20", "*true* => price = 20"),
      ("*true* => count = 3.0", "*true* => count = 3.0"),
      (
        "*true* => isObjectEditable = !isEntityReadOnly",
        "*true* => isObjectEditable = NOT isEntityReadOnly"
      ),
      ("*true* => note = nil", "*true* => note = nil"),
      ("*true* => note = NULL", "*true* => note = nil"),
      ("debug => title = 'Debug'", "debug = true => title = 'Debug'"),
      (
        "*true* => displayNameForProperty = @prettyPropertyKey",
        "*true* => displayNameForProperty = @prettyPropertyKey"
      ),
    ] as [(String, String?)])
  func canonicalPrinting(source: String, printed: String?) throws {
    let rule = try parser.parseRule(source)
    if let printed { #expect(rule.description == printed) }
    #expect(try parser.parseRule(rule.description) == rule)
    #expect(rule.description == (try parser.parseRule(rule.description)).description, "idempotent")
  }

  @Test func keywordsAnyCase() throws {
    let rule = try parser.parseRule("task = 'a' and not debug Or task = 'b' => title = 'x'")
    #expect(rule.description == "task = 'a' AND NOT debug = true OR task = 'b' => title = 'x'")
  }

  func error(_ text: String) -> ParseError? {
    #expect(throws: ParseError.self) { try parser.parseRule(text) }
  }

  @Test(arguments: [
    (
      "tsk = 'edit' => title = 'x'", 1, 1,
      "unknown key 'tsk' (did you mean 'task'?); quote it if it is a string ('tsk')"
    ),
    ("task = edit => title = 'x'", 1, 8, "unknown key 'edit'; quote it if it is a string ('edit')"),
    ("task = 'edit' => titel = 'x'", 1, 18, "unknown key 'titel' (did you mean 'title'?)"),
    (
      "task = 'edit' => title = Moviestars", 1, 26,
      "unknown key 'Moviestars'; quote it if it is a string ('Moviestars')"
    ),
    (
      "task = 'edit' => title = 42", 1, 26,
      "cannot use an integer 42 for key 'title': expected String"
    ),
    (
      "*true* => readOnlyEntityNames = 'Staff'", 1, 33,
      "cannot use a string 'Staff' for key 'readOnlyEntityNames': expected [String]"
    ),
    (
      "*true* => count = 1.5", 1, 19,
      "cannot use a decimal 1.5 for key 'count': expected Int (not a whole number)"
    ),
    (
      "task = 'edit' => title = 'x' ; urgent", 1, 32,
      "unknown priority 'urgent' (use important, very high, high, normal, low, very low, fallback or an integer)"
    ),
    ("task = 'edit' => title", 1, 23, "expected '=' after 'title'"),
    ("task = 'edit' => title = 'x' 'y'", 1, 30, "unexpected 'y' after the value"),
    (
      "task = 'edit' => object.name = 'x'", 1, 18,
      "expected the name of the key to assign, found 'object.name'"
    ),
    ("=> title = 'x'", 1, 1, "expected a condition before '=>'"),
    ("task = 'edit' title = 'x'", 1, 15, "unexpected 'title' after the value"),
    (
      "TASK = 'edit' => title = 'x'", 1, 1,
      "unknown key 'TASK' (did you mean 'task'?); quote it if it is a string ('TASK')"
    ),
    ("task = 'a' => title = 'x' ; 1 ; 2", 1, 31, "unexpected ';' after the end of the expression"),
    (
      "*true* => count = 99999999999999999999", 1, 19,
      "integer literal 99999999999999999999 overflows"
    ),
    ("task = 'edit' => title = \"x", 1, 26, "unterminated string: missing closing \""),
  ])
  func errors(text: String, line: Int, column: Int, message: String) {
    guard let error = error(text) else { return }
    #expect(error.message == message)
    #expect(error.location == SourceLocation(line: line, column: column))
  }

  @Test func unknownComputationsAreErrorsWhenTheyAreKnown() throws {
    let computations = RuleComputations()
    computations.register("prettyPropertyKey") { _ in "x" }
    let strict = RuleParser(registry: TestRegistry.make(), computations: computations)
    #expect(throws: ParseError.self) { try strict.parseRule("*true* => title = @nothing") }
    #expect(
      try strict.parseRule("*true* => title = @prettyPropertyKey").value
        == .computation("prettyPropertyKey"))
  }
}

@Suite struct RuleFileTests {
  let parser = RuleParser(registry: TestRegistry.make())

  @Test func continuationLinesAndComments() throws {
    let rules = try parser.parseRules(
      """
      # a comment
      task = 'list' AND \\
        entity.name = 'Customer' \\
        => displayPropertyKeys = ('firstName', \\
                                  'address.phone')

      // another comment
      task = 'list' => nextTask = 'inspect' ; low  # trailing
      """)
    #expect(
      rules.map(\.description) == [
        "task = 'list' AND entity.name = 'Customer' => displayPropertyKeys = ('firstName', 'address.phone')",
        "task = 'list' => nextTask = 'inspect' ; low",
      ])
  }

  @Test func everyErrorIsReportedWithFileLineColumnAndNothingLoads() throws {
    let model = RuleModel()
    let text = """
      task = 'list' => nextTask = 'inspect'
      task = 'edit' => titel = 'x'
      task = 'a' AND \\
        task = => title = 'y'
      *true* => title = 'fine'
      """
    let error = #expect(throws: RuleFileError.self) {
      try model.load(text, file: "demo.d2s", parser: parser)
    }
    #expect(model.count == 0, "a file with any error loads nothing")
    #expect(error?.errors.count == 2)
    #expect(
      error?.description == """
        demo.d2s:2:18: error: unknown key 'titel' (did you mean 'title'?)
        task = 'edit' => titel = 'x'
                         ^
        demo.d2s:4:10: error: expected a value, found '=>'
          task = => title = 'y'
                 ^
        """)
  }

  @Test func loadsAFileFromDisk() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID()).d2s")
      .path
    try "*true* => title = 'From file'\n".write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(
      try parser.parseRuleFile(atPath: path).map(\.description) == ["*true* => title = 'From file'"]
    )
    #expect(throws: RuleFileReadError.self) { try parser.parseRuleFile(atPath: path + ".missing") }
  }
}
