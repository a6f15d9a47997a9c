import Testing

@testable import RuleCore

/// Sibling engines: the same rules and answers, each with a cache of its own.
@Suite struct RuleCacheSiblingTests {
  @Test func aSiblingAnswersAsItsEngineWithACacheOfItsOwn() throws {
    let base = try context(
      """
      task = 'edit' => displayNameForEntity = 'Editing'
      *true* => displayNameForEntity = 'Other'
      """)
    let engine = base.engine
    let sibling = engine.sibling(maximumAnswersPerKey: 2)
    for task in ["edit", "list", "inspect", "edit"] {
      let mine = RuleContext(engine: engine).with(Keys.Task.self, task)
      let theirs = RuleContext(engine: sibling).with(Keys.Task.self, task)
      #expect(mine.displayNameForEntity == theirs.displayNameForEntity)
    }
    #expect(engine.cacheStatistics.hits >= 1, "edit again, from the engine's own cache")
    #expect(sibling.cacheStatistics.hits == 0, "its two answers were dropped at the third")
  }
}
