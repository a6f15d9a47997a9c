import D2STesting
import Foundation
import Testing

@testable import D2SREPL
@testable import RuleCore

/// `lint` compares a rule only with those that could cause a finding about it, so 10,000
/// rules of one key take time in proportion (every pair took 70 s): a plain rule has a few
/// candidates, and a duplicate, a rule that can never win and an ambiguous pair are still
/// found (the all-pairs version's output was compared line for line, on 1,500 random rules,
/// when this was written). Ctrl-C stops it.
@Suite struct LintScaleTests {
  static func session(_ rules: [String]) throws -> REPLSession {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    let path = try RuleToolsTests.ruleFile(rules.joined(separator: "\n") + "\n")
    _ = try session.run("load \(path)")
    return session
  }

  @Test func aRuleIsComparedWithTheRulesThatCanMatter() throws {
    var rules = (0..<2_000).map { "entity.name = 'E\($0)' => displayNameForEntity = 'x\($0)'" }
    rules += [
      "entity.name = 'E7' => displayNameForEntity = 'x7'",  // a duplicate of rule 8
      "entity.name = 'E9' AND task = 'list' => displayNameForEntity = 'y' ; low",  // never wins
      "task = 'list' => displayNameForEntity = 'z'",  // ambiguous with every list rule
      "task = 'list' AND entity.name = 'E3' => displayNameForEntity = 'w'",
    ]
    let session = try Self.session(rules)
    let model = session.context.engine.ruleModel
    let group = model.rules.filter { $0.rule.key.name == "displayNameForEntity" }
    let parts = group.map { RuleEngine.conjuncts($0.rule.predicate) }
    let texts = parts.map { $0.map { Set($0.map(\.description)) } }
    let candidates = LintCandidates(group, parts: parts, texts: texts)
    // `entity.name = 'E500'`: itself, and the rule testing no entity name.
    let plain = try #require(group.firstIndex { $0.rule.predicate.description.contains("'E500'") })
    #expect(candidates.of(plain).count <= 3, "\(candidates.of(plain).count)")
    let lint = try session.run("lint")
    #expect(lint.contains("rule 2001 duplicates rule 8"), "\(lint)")
    #expect(lint.contains("rule 2002 can never win: rule 10"), "\(lint)")
    #expect(lint.contains("rule 1 and rule 2003") && lint.contains("are ambiguous"), "\(lint)")
    #expect(session.context.engine.structuralLint(of: model, stop: { true }).isEmpty)
  }
}
