import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// A rule whose first condition is an equality across a to-many (`object.films.title = …`,
/// true when any film has that title) applies as `explain` says it does. The rule index read
/// the path's values as one list, found no bucket for it, and skipped every such rule: a rule
/// forbidding an edit was not applied.
@Suite struct ToManyRuleIndexTests {
  @Test func aForbiddingRuleAcrossAToManyForbids() throws {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    _ = try session.run(
      "rule object.films.title = 'ACADEMY DINOSAUR' => isObjectEditable = false ; high")
    #expect {
      try session.run("edit Actor 1")
    } throws: { "\($0)".contains("may not be edited") }
    // Actor 2 has no such film: the rule does not apply.
    _ = try session.run("edit Actor 2")
    _ = try session.run("revert")
  }

  @Test func aRuleAcrossAToManyAnswersAsExplainSays() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("rule object.actors.firstName = 'PENELOPE' => displayNameForEntity = 'HIT'")
    _ = try session.run("inspect Film 1")
    #expect(try session.run("show displayNameForEntity").contains("'HIT'"))
    _ = try session.run("inspect Film 2")
    #expect(!(try session.run("show displayNameForEntity")).contains("'HIT'"))
  }
}
