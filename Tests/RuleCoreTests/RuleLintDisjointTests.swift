import Qualifiers
import Testing

@testable import RuleCore

/// When `lint` may call two rules ambiguous: only when their conditions can both hold.
@Suite struct RuleLintDisjointTests {
  func parts(_ text: String) throws -> [Qualifier] {
    try #require(RuleEngine.conjuncts(try QualifierParser.parse(text)))
  }

  func bothHold(_ a: String, _ b: String, exclusive: [Set<String>] = []) throws -> Bool {
    let (x, y) = (try parts(a), try parts(b))
    let forward = RuleEngine.canBothHold(x, y, exclusive: exclusive)
    #expect(forward == RuleEngine.canBothHold(y, x, exclusive: exclusive), "symmetric")
    return forward
  }

  @Test func oneKeyPathWithValuesNoValuePassesBothWays() throws {
    #expect(try !bothHold("kind = 'a'", "kind = 'b'"))
    #expect(try !bothHold("kind = 'Int'", "kind in ('Decimal', 'Double')"))
    #expect(try !bothHold("kind in ('a', 'b')", "kind in ('c')"))
    #expect(try !bothHold("kind = 'a'", "kind != 'a'"))
    #expect(try !bothHold("task = 'edit' AND kind = 'Date'", "kind in ('Int', 'Double')"))
  }

  @Test func conditionsThatCanBothHoldStayAmbiguous() throws {
    #expect(try bothHold("kind = 'a'", "kind = 'a'"))
    #expect(try bothHold("kind = 'Int'", "kind in ('Int', 'Double')"))
    #expect(try bothHold("kind in ('a', 'b')", "kind in ('b', 'c')"))
    #expect(try bothHold("kind = 'a'", "kind != 'b'"))
    #expect(try bothHold("kind = 'a'", "name like '*a*'"))
    #expect(try bothHold("kind = 'a'", "other = 'b'"))
    #expect(try bothHold("kind < 3", "kind > 5"), "ranges are not judged")
    #expect(try bothHold("count = 1", "count in (1.0, 2)"), "1 and 1.0 are one value")
    #expect(try !bothHold("count = 1", "count in (1.5, 2)"))
    // A path of more steps may cross a to-many list, whose elements each may match.
    #expect(try bothHold("user.roles.name = 'admin'", "user.roles.name = 'guest'"))
    #expect(try bothHold("user.roles.name = 'admin'", "user.roles.name != 'admin'"))
  }

  @Test func keysDeclaredExclusiveCannotBothHaveValues() throws {
    let exclusive: [Set<String>] = [["attribute", "relationship"]]
    #expect(
      try !bothHold(
        "relationship.kind = 'toMany'", "attribute.valueType = 'Date'", exclusive: exclusive))
    #expect(
      try !bothHold(
        "task = 'edit' AND attribute.isPassword = true", "relationship.kind = 'toOne'",
        exclusive: exclusive))
    #expect(
      try bothHold("relationship.kind = 'toMany'", "attribute.valueType = 'Date'"),
      "not without the declaration")
    // nil passes these, so they need no value.
    #expect(
      try bothHold("relationship = nil", "attribute.valueType = 'Date'", exclusive: exclusive))
    #expect(
      try bothHold(
        "relationship.kind != 'toMany'", "attribute.valueType = 'Date'", exclusive: exclusive))
    #expect(
      try bothHold(
        "attribute.name like '*a*'", "attribute.valueType = 'Date'", exclusive: exclusive))
    // nil sorts first: `< 10` holds for nil.
    #expect(
      try bothHold("attribute.width < 10", "relationship.kind = 'toOne'", exclusive: exclusive))
    #expect(
      try !bothHold("attribute.width > 10", "relationship.kind = 'toOne'", exclusive: exclusive))
    #expect(
      try bothHold(
        "attribute.valueType in ('Date', nil)", "relationship.kind = 'toOne'",
        exclusive: exclusive))
  }
}
