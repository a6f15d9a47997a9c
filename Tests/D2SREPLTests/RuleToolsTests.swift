import Components
import D2STesting
import Foundation
import RuleCore
import Testing

@testable import D2SREPL

/// The rule tools through the REPL: labels, why-not, explain with places and trees, lint and
/// coverage, on SQLite and PostgreSQL.
@Suite struct RuleToolsTests {
  static var fixtures: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  }

  func session(_ server: TestServer) throws -> REPLSession {
    let session = try REPLSession(width: 100)
    _ = try session.run(
      "open \(server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy())")
    return session
  }

  /// A rule file in a fresh temporary folder.
  static func ruleFile(_ text: String, named name: String = "tutorial.d2s") throws -> String {
    let folder = try TestFolders.make("d2s-rules")
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: TestServer.available)
  func labelsAndWhyNot(server: TestServer) throws {
    let session = try session(server)
    _ = try session.run("list Film limit 1")
    _ = try session.run("rule entity.name = 'Actor' => displayNameForEntity = 'Stars'")
    _ = try session.run("rule entity.name = 'Film' => displayNameForEntity = 'Movies'")
    _ = try session.run("rule *true* => displayNameForEntity = 'Things' ; high")
    _ = try session.run("rule task = 'list' => displayNameForEntity = 'Lists' ; high")
    _ = try session.run("rule entity.name = 'Film' => title = object.nothing")
    #expect(
      try session.run("why-not 1")
        == "rule 1 does not match: entity.name = 'Actor' is false here (entity.name = 'Film')")
    #expect(
      try session.run("why-not 3")
        == "rule 3 matches, but rule 4 ranks higher (same priority, complexity 1 > 0)")
    #expect(
      try session.run("why-not 2")
        == "rule 2 matches, but rule 4 ranks higher (priority high > normal)")
    #expect(try session.run("why-not 4") == "rule 4 wins: displayNameForEntity = 'Lists'")
    _ = try session.run("rule task = 'list' => displayNameForEntity = 'Later' ; high")
    #expect(
      try session.run("why-not 4")
        == "rule 4 matches, but rule 6 ranks higher (same rank, rule 6 was added later)")
    #expect(try session.run("why-not 5").hasPrefix("rule 5 is skipped: "))
    _ = try session.run("displayNameForEntity = 'Fixed'")
    #expect(
      try session.run("why-not 6")
        == "rule 6 would win, but displayNameForEntity is set explicitly here")
    // Builtin labels, `for PROPERTY`, and labels in `rules --all`, `show` and `explain`.
    #expect(try session.run("rules --all").contains("\nbuiltin rule 1: task = 'query' => page"))
    #expect(
      try session.run("why-not builtin:4 for title")
        == "rule builtin:4 does not match: task = 'edit' is false here (task = 'list')")
    #expect(
      try session.run("show page")
        == "page = 'QueryList'  # builtin rule 2: task = 'list' => page = 'QueryList'")
    #expect(try session.run("explain page").contains("  builtin rule 1: task = 'query'"))
    #expect(throws: NameError.self) { try session.run("why-not 1 for titel") }
    #expect(throws: (any Error).self) { try session.run("why-not 99") }
    #expect(throws: (any Error).self) { try session.run("why-not Nope:1") }
    #expect(throws: REPLError.self) { try session.run("why-not") }
  }

  @Test func explainNamesTheFileAndLineAndTree() throws {
    let session = try session(.sqlite)
    let path = try Self.ruleFile(
      "# films\nentity.name = 'Film' => displayNameForEntity = 'Movies'\n")
    _ = try session.run("list Film limit 1")
    _ = try session.run("load \(path)")  // after the page: loading clears the cache
    let explained = try session.run("explain displayNameForEntity")
    #expect(
      explained.contains(
        "matched  rule 1: entity.name = 'Film' => displayNameForEntity = 'Movies'  (\(path):2)"))
    #expect(explained.contains("\nwinner: rule 1: "))
    #expect(explained.hasPrefix("rank  priority  complexity  status  rule\n1  "))
    let tree = try session.run("explain --tree navigationBarTitle")
    // Each key once under the look-up that read it, though several candidates read it.
    let pageTree = try session.run("explain --tree page").split(separator: "\n")
    #expect(pageTree == ["page = 'QueryList'  # rule builtin:2", "  task = 'list'  # set"])
    #expect(
      tree.hasPrefix(
        """
        navigationBarTitle = 'Movies'  # rule builtin:
        """))
    #expect(tree.contains("\n  title = 'Movies'  # rule builtin:"))
    #expect(tree.contains("\n    displayNameForEntity = 'Movies'  # rule 1"))
    #expect(tree.contains("\n      entity = 'Film'  # set"))
    _ = try session.run("explain --tree navigationBarTitle")
    #expect(try session.run("explain --tree navigationBarTitle").contains("(cached)"))
  }

  @Test func theTreeShowsTheSetKeysAComputationReads() throws {
    let session = try session(.sqlite)
    _ = try session.run("list Film limit 1")
    // @prettyPropertyKey reads propertyKey, set for the property: a read that a lookup in
    // progress answers itself, and still traced.
    let tree = try session.run("explain --tree displayNameForProperty for rentalRate")
      .split(separator: "\n")
    #expect(tree.count == 2, "\(tree)")
    let first = tree.first.map(String.init) ?? ""
    #expect(first.hasPrefix("displayNameForProperty = 'Rental Rate'  # rule builtin:"))
    #expect(tree.last == "  propertyKey = 'rentalRate'  # set")
  }

  @Test func explainNamesTheSwiftFileAndLineOfARuleInSwift() throws {
    let session = try session(.sqlite)
    let rule = (\.entity?.name == "Film" => \.displayNameForEntity <= "Movies").priority(.normal)
    let line = #line - 1
    session.context.engine.ruleModel.add(rule)
    _ = try session.run("list Film limit 1")
    #expect(
      try session.run("explain displayNameForEntity").contains(
        "displayNameForEntity = 'Movies'  (\(#filePath):\(line))"))
  }

  @Test(arguments: TestServer.available)
  func lintFindsTheFixtureCases(server: TestServer) throws {
    let session = try session(server)
    let path = Self.fixtures.appendingPathComponent("lint.d2s").path
    _ = try session.run("load \(path)")
    let lines = try session.run("lint").split(separator: "\n").map(String.init)
    let expected = [
      "\(path):2:1: warning: rule 1 can never win: rule 2 (\(path):3) matches whenever it does and ranks higher (priority high > normal)",
      "\(path):4:1: warning: rule 3 and rule 4 (\(path):5) are ambiguous: same priority and complexity, both can match, different values; rule 4 silently wins (added later)",
      "\(path):6:39: warning: unknown component 'EditRatting' (no look has it); did you mean 'EditString'?",
      "\(path):7:15: warning: unknown entity 'Flim' (the model has no such entity); did you mean 'Film'?",
      "\(path):8:26: warning: key path object.titel: Film has no property 'titel'; did you mean 'title'?",
      "\(path):10:1: warning: rule 9 duplicates rule 8 (\(path):9): same condition and value",
      "6 warnings",
    ]
    #expect(lines == expected)
  }

  @Test func lintIsSilentOnTheDemoRulesAndNamesWhatItSkips() throws {
    let session = try session(.sqlite)
    let demo = SakilaSQLite.dataFolder.deletingLastPathComponent().appendingPathComponent(
      "demo.d2s")
    _ = try session.run("load \(demo.path)")
    #expect(try session.run("lint") == "no warnings")
    let bare = try REPLSession(width: 100)
    _ = try bare.run("rule task = 'lsit' => nextTask = 'inspect'")
    #expect(
      try bare.run("lint")
        == """
        rule 1: warning: unknown task 'lsit' (no page handles it); did you mean 'list'?
        no database is open: entity, key path and property names were not checked
        1 warning
        """)
  }

  @Test func lintChecksNamesOnTheValueSide() throws {
    let session = try session(.sqlite)
    _ = try session.run("rule *true* => readOnlyEntityNames = ('Staf')")
    _ = try session.run("rule entity.name = 'Film' => displayPropertyKeys = ('title', 'titel')")
    _ = try session.run("rule propertyKey = 'rentalRate' => formatter = 'curency'")
    #expect(
      try session.run("lint")
        == """
        rule 1: warning: unknown entity 'Staf' (the model has no such entity); did you mean 'Staff', 'StaffList'?
        rule 2: warning: displayPropertyKeys: 'titel': Film has no property 'titel'; did you mean 'title'?
        rule 3: warning: unknown formatter 'curency' (it is not registered); did you mean 'currency'?
        3 warnings
        """)
  }

  @Test(arguments: TestServer.available)
  func coverageCountsWinsAndEvaluations(server: TestServer) throws {
    let session = try session(server)
    _ = try session.run("rule entity.name = 'Film' => displayNameForEntity = 'Movies'")
    _ = try session.run("rule entity.name = 'Flim' => displayNameForEntity = 'Typo'")
    _ = try session.run("list Film limit 2")
    _ = try session.run("show displayNameForEntity")
    let report = try session.run("coverage").split(separator: "\n").map(String.init)
    #expect(report.first == "rule  won  evaluated")
    let first = report[1].split(separator: " ", omittingEmptySubsequences: true)
    #expect(first[0] == "1" && Int(first[1]) ?? 0 >= 1 && Int(first[2]) ?? 0 >= 1)
    #expect(report[2].hasPrefix("2  0  "))
    #expect(
      report.suffix(2) == [
        "never won:", "  rule 2: entity.name = 'Flim' => displayNameForEntity = 'Typo'",
      ])
    #expect(try session.run("coverage --all").contains("\nbuiltin:2  "))
  }
}
