import AuditKeys
import D2S
import D2STesting
import RatingComponents
import Testing

// Rules in Swift, in a package outside D2S (quoted in the README, "Rules in Swift"): the rules
// as the seeds write them, with no setup call, and the same rules as text.

let ruleModel: RuleModel = [
  \.propertyKey == "rating" && \.task == "edit" => \.component <= EditRating(),
  \.entity?.name == "Actor" => \.displayNameForEntity <= "Moviestars",
  (\.task == "list" => \.nextTask <= "inspect").priority(.low),
  \.entity?.name == "Customer" => \.title <= \.object?.lastName,
]

let ruleText = """
  propertyKey = 'rating' AND task = 'edit' => component = 'EditRating'
  entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
  task = 'list' => nextTask = 'inspect' ; low
  entity.name = 'Customer' => title = object.lastName
  """

@Suite struct RulesInSwiftTests {
  @Test func theSwiftRulesAreTheTextRules() throws {
    let swift = try RuleTester(rules: ruleModel, plugins: [RatingComponentsPlugin()])
    let text = try RuleTester(rules: ruleText, plugins: [RatingComponentsPlugin()])
    let swiftRules = swift.context.engine.ruleModel.rules.map(\.rule)
    #expect(swiftRules.count == 4)
    #expect(swiftRules == text.context.engine.ruleModel.rules.map(\.rule))
  }

  @Test func printsAsCanonicalRuleText() {
    #expect("\(ruleModel)" == ruleText)
  }

  @Test func theTitleOfACustomerIsItsLastName() throws {
    let tester = try RuleTester(rules: ruleModel, database: try TestDatabases.sakila())
    let mary = try tester.with(object: "Customer", key: [.int(1)])
    #expect(try mary.value("title") == "'SMITH'")
    #expect(try mary.rule("title") == "entity.name = 'Customer' => title = object.lastName")
    #expect(
      try tester.setting("entity", to: "'Actor'").value("displayNameForEntity") == "'Moviestars'")
  }

  @Test func theEditRatingComponentIsNamedAsInText() throws {
    let tester = try RuleTester(
      rules: ruleModel, plugins: [RatingComponentsPlugin()], database: try TestDatabases.sakila())
    let rating = try tester.with(object: "Film", key: [.int(1)]).setting("task", to: "'edit'")
      .setting("propertyKey", to: "'rating'")
    #expect(try rating.value("component") == "'EditRating'")
  }

  @Test func keysOfPluginsAreNamedByTheEngine() throws {
    let line = #line + 1
    let audited: RuleModel = [\.entity?.name == "Film" => \.isAuditLogged <= true]
    let error = try #require(throws: RuleDSLError.self) { try RuleTester(rules: audited) }
    #expect(
      "\(error)".contains(
        "RulesInSwiftTests.swift:\(line): the key 'isAuditLogged' (AuditKeys.IsAuditLoggedKey) is not exposed"
      ))
    #expect("\(error)".contains("in: entity.name = 'Film' => isAuditLogged = true"))

    let tester = try RuleTester(
      rules: audited, plugins: [AuditKeysPlugin()], database: try TestDatabases.sakila())
    #expect(try tester.setting("entity", to: "'Film'").value("isAuditLogged") == "true")
    #expect(try tester.setting("entity", to: "'Actor'").value("isAuditLogged") == "false")
  }
}
