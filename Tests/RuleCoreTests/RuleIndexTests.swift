import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import Testing

@testable import RuleCore

@Suite struct RuleIndexTests {
  func model(rules count: Int, registry: D2SContextKVC) throws -> RuleModel {
    let parser = RuleParser(registry: registry)
    let text = (1...count).map { "propertyKey = 'p\($0)' => displayNameForProperty = 'P\($0)'" }
      .joined(separator: "\n")
    return RuleModel(try parser.parseRules(text))
  }

  @Test func uncachedLookupsEvaluateOnlyTheMatchingBucket() throws {
    let registry = TestRegistry.make()
    let ctx = RuleContext(
      engine: try RuleEngine(
        ruleModel: try model(rules: 10_000, registry: registry), registry: registry, cache: false))
    for n in [1, 5_000, 10_000] {
      let before = ctx.engine.evaluationCount
      #expect(ctx.with(\.propertyKey, "p\(n)").displayNameForProperty == "P\(n)")
      #expect(ctx.engine.evaluationCount - before == 1, "one rule evaluated of 10,000")
    }
    let before = ctx.engine.evaluationCount
    #expect(ctx.with(\.propertyKey, "nope").displayNameForProperty == "")
    #expect(ctx.engine.evaluationCount == before)
  }

  @Test func unindexedRulesKeepTheirRank() throws {
    let registry = TestRegistry.make()
    let parser = RuleParser(registry: registry)
    let model = RuleModel(
      try parser.parseRules(
        """
        propertyKey = 'a' => title = 'indexed a'
        propertyKey = 'b' => title = 'indexed b'
        task = 'edit' => title = 'edit, high' ; high
        task = 'edit' => title = 'edit, low' ; low
        propertyKey = 'a' AND task = 'edit' => title = 'a and edit'
        count = 1 => title = 'count'
        """))
    for cache in [false, true] {
      let engine = try RuleEngine(ruleModel: model, registry: registry, cache: cache)
      let ctx = RuleContext(engine: engine)
      #expect(ctx.with(\.propertyKey, "a").title == "indexed a")
      #expect(ctx.with(\.propertyKey, "b").title == "indexed b")
      #expect(ctx.with(\.propertyKey, "a").with(\.task, "edit").title == "edit, high")
      #expect(ctx.with(\.propertyKey, "c").with(\.task, "edit").title == "edit, high")
      #expect(ctx.with(\.propertyKey, "c").title == "D2S")
      #expect(ctx.with(\.count, 1).title == "count")
    }
  }

  @Test func numbersIndexByValue() throws {
    let registry = TestRegistry.make()
    let parser = RuleParser(registry: registry)
    let model = RuleModel(
      try parser.parseRules("count = 1.0 => title = 'one'\ncount = 2 => title = 'two'"))
    let engine = try RuleEngine(ruleModel: model, registry: registry, cache: false)
    let ctx = RuleContext(engine: engine)
    #expect(ctx.with(\.count, 1).title == "one")
    #expect(ctx.with(\.count, 2).title == "two")
  }

  /// The same lookups through the index agree with a plain scan (explain walks every rule).
  @Test func indexAgreesWithAFullScan() throws {
    let registry = TestRegistry.make()
    let parser = RuleParser(registry: registry)
    var rules: [String] = []
    let keys = ["a", "b", "c"]
    let priorities = ["", " ; high", " ; low"]
    for i in 0..<60 {
      let key = keys[i % 3]
      switch i % 4 {
      case 0: rules.append("propertyKey = '\(key)' => title = 'r\(i)'\(priorities[i % 3])")
      case 1:
        rules.append(
          "propertyKey = '\(key)' AND task = 'edit' => title = 'r\(i)'\(priorities[(i / 3) % 3])")
      case 2: rules.append("task = 'edit' => title = 'r\(i)'\(priorities[(i / 5) % 3])")
      default: rules.append("propertyKey != '\(key)' => title = 'r\(i)'\(priorities[(i / 7) % 3])")
      }
    }
    let model = RuleModel(try parser.parseRules(rules.joined(separator: "\n")))
    let engine = try RuleEngine(ruleModel: model, registry: registry, cache: false)
    let ctx = RuleContext(engine: engine)
    for key in keys + ["z"] {
      for task in ["edit", "list"] {
        let row = ctx.with(\.propertyKey, key).with(\.task, task)
        let scanned = try row.explain(keyNamed: "title").resolution.value as? String
        #expect(row.title == scanned, "\(key) \(task)")
      }
    }
  }
}

@Suite struct RuleRoundTripTests {
  /// Generated rules print as text that parses back to an equal rule, and printing is idempotent.
  @Test func generatedRulesRoundTrip() throws {
    let registry = TestRegistry.make()
    let parser = RuleParser(registry: registry)
    var random = SplitMix64(seed: 7)
    let predicates = [
      "*true*", "task = 'edit'", "propertyKey = 'a' AND NOT (task = 'list' OR debug = true)",
      "entity.name in ('Film', 'Actor')", "object.lastName like 'S*'",
      "count >= -3 AND count < 2.5",
      "user.firstName = object.firstName", "note = nil OR note != 'x\\'y'",
      "*false* OR entity.name ilike '*cust?mer*'",
    ]
    let assignments = [
      "title = 'T'", "title = object.lastName", "displayPropertyKeys = ('a', 'b c', '')",
      "count = 42",
      "price = 20.99", "note = nil", "isObjectEditable = NOT isEntityReadOnly", "debug = true",
      "displayNameForProperty = @prettyPropertyKey", "readOnlyEntityNames = ()",
    ]
    let priorities = [
      "", " ; important", " ; veryHigh", " ; high", " ; low", " ; veryLow", " ; fallback", " ; 7",
      " ; -1",
    ]
    func predicate(_ depth: Int) -> String {
      switch random.next(depth > 0 ? 6 : 3) {
      case 0, 1, 2: return predicates[random.next(predicates.count)]
      case 3: return "(\(predicate(depth - 1))) AND (\(predicate(depth - 1)))"
      case 4: return "(\(predicate(depth - 1))) OR \(predicate(depth - 1))"
      default: return "NOT (\(predicate(depth - 1)))"
      }
    }
    for _ in 0..<1_000 {
      let text =
        "\(predicate(3)) => \(assignments[random.next(assignments.count)])\(priorities[random.next(priorities.count)])"
      let rule = try parser.parseRule(text)
      let printed = rule.description
      let reparsed = try parser.parseRule(printed)
      #expect(reparsed == rule, "\(text)")
      #expect(reparsed.description == printed)
    }
  }
}

/// The discriminator's counts, against a dictionary's.
@Suite struct PathCountsTests {
  @Test(arguments: [1, 3, 40, 200])
  func countsMatchADictionarysCounts(distinctPaths: Int) {
    var counts = PathCounts()
    var expected: [KVCPath: Int] = [:]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<(distinctPaths * 5) {
      let n = Int.random(in: 0..<distinctPaths, using: &generator)
      // Paths that print alike but differ: `a.b` as one component and as two.
      let path =
        n % 2 == 0 ? KVCPath(components: ["p\(n)", "x"]) : KVCPath(components: ["p\(n - 1).x"])
      counts.add(path)
      expected[path, default: 0] += 1
    }
    #expect(counts.all.count == expected.count)
    for (path, count) in counts.all { #expect(expected[path] == count, "\(path)") }
  }
}
