import Components
import D2SModel
import Foundation
import Testing

@testable import D2STesting

@Suite struct RuleTesterTests {
  @Test func valuesAndTheirRules() throws {
    let tester = try RuleTester(
      rules: "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'",
      database: try TestDatabases.sakila()
    ).setting("entity", to: "'Actor'")
    #expect(try tester.value("displayNameForEntity") == "'Moviestars'")
    #expect(
      try tester.rule("displayNameForEntity")
        == "entity.name = 'Actor' => displayNameForEntity = 'Moviestars'")
    #expect(
      try tester.setting("entity", to: "'Film'").rule("displayNameForEntity")
        == "*true* => displayNameForEntity = entity.name")
    #expect(
      try tester.setting("displayNameForEntity", to: "'X'").rule("displayNameForEntity") == nil)
  }

  @Test func objectRulesAndPages() throws {
    let tester = try RuleTester(
      rules: "object.firstName = 'STEVE' => isObjectEditable = false",
      database: try TestDatabases.sakila())
    #expect(try tester.with(object: "Customer", key: [.int(1)]).value("isObjectEditable") == "true")
    let steve = try tester.with(object: "Customer", key: [.int(372)])
    #expect(try steve.value("isObjectEditable") == "false", "customer 372 is STEVE")
    #expect(try tester.render(task: "query").contains("  Actor"))
  }

  @Test func inMemoryDatabasesFromSQL() throws {
    let database = try TestDatabases.sqlite(
      "CREATE TABLE pet (pet_id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO pet VALUES (1, 'Rex');"
    )
    let tester = try RuleTester(database: database)
    #expect(try tester.render(task: "list", entity: "Pet").contains("Rex"))
    #expect(throws: (any Error).self) { try RuleTester(rules: "titel = 'x'") }
  }
}

@Suite struct FixtureCleanupTests {
  /// Test processes running side by side must not delete each other's Sakila fixture.
  @Test func onlyFixturesOfEndedProcessesAreStale() {
    #expect(!SakilaSQLite.isStale("sakila-fixture-\(getpid()).db"))
    #expect(!SakilaSQLite.isStale("d2s-tests-1"))
    #expect(SakilaSQLite.isStale("sakila-fixture-\(Int32.max - 7).db"))
    #expect(!SakilaSQLite.isStale("notes.txt"))
  }
}

/// Typed answers, why-not and coverage of `RuleTester`.
@Suite struct RuleTesterToolsTests {
  static let coverage = RuleCoverage()

  static func ruleFile() throws -> String {
    let folder = try TestFolders.make("d2s-tester")
    let path = folder.appendingPathComponent("app.d2s").path
    try """
    entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
    entity.name = 'Flim' => displayNameForEntity = 'Typo'
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func typedValuesWhyNotAndCoverage() throws {
    let path = try Self.ruleFile()
    let tester = try RuleTester(
      ruleFile: path, database: try TestDatabases.sakila(), coverage: Self.coverage
    )
    .setting("entity", to: "'Actor'")
    #expect(try tester.value(\.displayNameForEntity) == "Moviestars")
    #expect(try tester.value(D2SKeys.DisplayNameForEntity.self) == "Moviestars")
    #expect(
      try tester.whyNot(rule: 1).description == "rule 1 wins: displayNameForEntity = 'Moviestars'")
    #expect(
      try tester.whyNot(rule: "2").description
        == "rule 2 does not match: entity.name = 'Flim' is false here (entity.name = 'Actor')")
    #expect(
      try tester.whyNot(rule: "builtin:1").description == "rule builtin:1 wins: page = 'EntityList'"
    )
    #expect(tester.neverWon == ["rule 2: entity.name = 'Flim' => displayNameForEntity = 'Typo'"])
    #expect(
      Self.coverage.neverWon(inFile: path) == [
        "\(path):2: entity.name = 'Flim' => displayNameForEntity = 'Typo'"
      ])
  }
}
