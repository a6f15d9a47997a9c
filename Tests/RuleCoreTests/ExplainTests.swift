import EnvKeys
import Testing

@testable import RuleCore

@Suite struct ExplainTests {
  @Test func listsCandidatesInRankOrderWithTheirFate() throws {
    let ctx = try context(
      """
      task = 'edit' => title = 'Editing'
      task = 'list' AND propertyKey = 'x' => title = 'List x' ; high
      task = 'list' => title = 'Listing'
      *true* => title = 'Anything' ; low
      """, fallbacks: ["*true* => title = 'Builtin'"]
    ).with(\.task, "list")
    let explanation = try ctx.explain(keyNamed: "title")
    #expect(
      explanation.description == """
        1  high  2  not matched  rule 2: task = 'list' AND propertyKey = 'x' => title = 'List x' ; high
        2  normal  1  matched  rule 3: task = 'list' => title = 'Listing'
        3  normal  1  not reached  rule 1: task = 'edit' => title = 'Editing'
        4  low  0  not reached  rule 4: *true* => title = 'Anything' ; low
        5  normal  0  not reached  builtin rule 1: *true* => title = 'Builtin'
        winner: rule 3: task = 'list' => title = 'Listing'
        title = 'Listing'  # rule 3: task = 'list' => title = 'Listing'
        """)
  }

  @Test func marksRunTimeTies() throws {
    let ctx = try context(
      """
      task = 'list' => title = 'A'
      propertyKey = 'x' => title = 'B'
      """
    ).with(\.task, "list").with(\.propertyKey, "x")
    let statuses = try ctx.explain(keyNamed: "title").entries.map(\.status.description)
    #expect(statuses == ["matched", "matched (tie: rule 2 wins, added later)"])
    #expect(ctx.title == "B")
  }

  @Test func explicitValuesSkipTheRules() throws {
    let ctx = try context("*true* => title = 'x'").with(\.title, "Mine")
    #expect(
      try ctx.explain(keyNamed: "title").description == """
        set explicitly; rules not consulted
        title = 'Mine'  # set
        """)
  }

  @Test func defaultWhenNoRuleWins() throws {
    let ctx = try context("task = 'edit' => title = 'x'")
    let explanation = try ctx.explain(keyNamed: "title")
    #expect(explanation.winner == nil)
    #expect(
      explanation.description.hasSuffix("winner: none (default value)\ntitle = 'D2S'  # default"))
  }

  @Test func showLines() throws {
    let ctx = try context(
      "*true* => readOnlyEntityNames = ('Staff')\n*true* => displayPropertyKeys = ('a', 'b') ; low")
    #expect(
      try ctx.showLine(forKeyNamed: "readOnlyEntityNames")
        == "readOnlyEntityNames = ('Staff')  # rule 1: *true* => readOnlyEntityNames = ('Staff')")
    #expect(try ctx.showLine(forKeyNamed: "debug") == "debug = false  # default")
    #expect(try ctx.with(\.debug, true).showLine(forKeyNamed: "debug") == "debug = true  # set")
    #expect(throws: UnknownKeyError.self) { try ctx.showLine(forKeyNamed: "titel") }
  }

  @Test func settingKeysByNameCoercesLiterals() throws {
    var ctx = try context("")
    try ctx.setValue(.list([.string("Staff")]), forKeyNamed: "readOnlyEntityNames")
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    #expect(ctx[Keys.ReadOnlyEntityNames.self] == ["Staff"])
    #expect(ctx.entity?.name == "Film")
    let error = #expect(throws: LiteralCoercionError.self) {
      try ctx.setValue(.int(1), forKeyNamed: "task")
    }
    #expect(error?.description == "cannot use an integer 1 for key 'task': expected String")
    #expect(ctx.task == "query", "a failed set changes nothing")
    try ctx.removeValue(forKeyNamed: "readOnlyEntityNames")
    #expect(ctx[Keys.ReadOnlyEntityNames.self] == [])
    #expect(ctx.explicitKeys.map(\.key.name) == ["entity"])
  }
}
