import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

/// The builtin rules are parsed when their key is first looked up: the model they make is the
/// model parsing them at once makes, rule for rule (numbers, sources, text), and look-ups
/// answer the same before and after every rule is read.
@Suite struct DeferredDefaultRulesTests {
  let registry = D2SContextKVC()

  @Test func theDeferredModelIsTheParsedModel() throws {
    let engine = try D2SEngine.make(registry: registry)
    let deferred = try D2SEngine.defaultRuleModel(
      registry: registry, computations: engine.parser.computations ?? RuleComputations())
    let parsed = RuleModel(origin: .builtin)
    try parsed.load(DefaultRules.text, file: "builtin", parser: engine.parser)
    #expect(deferred.description == parsed.description)
    let (ours, theirs) = (deferred.rules, parsed.rules)
    #expect(ours.map(\.id) == theirs.map(\.id))
    #expect(ours.map(\.rule) == theirs.map(\.rule))
    for numbered in theirs {
      #expect(deferred.source(ofRule: numbered.id) == parsed.source(ofRule: numbered.id))
    }
  }

  @Test func lookUpsBeforeAndAfterEveryRuleIsRead() throws {
    var fresh = try sakilaContext("", registry: registry)
    var warm = try sakilaContext("", registry: registry)
    // Reading the rules as a whole parses every deferred one in the second engine only.
    _ = warm.engine.models.last?.rules
    for (entity, task) in [("Film", "list"), ("Customer", "inspect"), ("Rental", "edit")] {
      try fresh.setValue(.string(entity), forKeyNamed: "entity")
      try warm.setValue(.string(entity), forKeyNamed: "entity")
      fresh.task = task
      warm.task = task
      #expect(fresh.page?.name == warm.page?.name)
      #expect(fresh.displayPropertyKeys == warm.displayPropertyKeys)
      for key in fresh.displayPropertyKeys {
        #expect(
          fresh.with(\.propertyKey, key).component?.name
            == warm.with(\.propertyKey, key).component?.name, "\(entity).\(key)")
      }
    }
  }

  @Test(arguments: [
    ("task = 'list' => page = 'QueryList'", "page"),
    ("*true* => pageWrapper = 'Navigation' ; fallback", "pageWrapper"),
    ("a = '=> x = 1' => title = 'y'", "title"),
    ("a = \"it\\\"s => no\" => title = 'y'", "title"),
    ("f(a => b) => title = 'y'", "title"),
    ("x in ('=>') =>\\\n  title = 'y'", "title"),
    ("# task = 'list' => page = 'QueryList'", nil),
    ("// a => b = 1", nil),
    ("title = 'no condition'", nil),
    ("a => title == 'y'", nil),
    ("a => 9title = 'y'", nil),
    ("", nil),
  ])
  func theKeyIsReadWithoutParsing(text: String, key: String?) {
    #expect(RuleParser.assignedKeyName(text) == key)
  }
}
