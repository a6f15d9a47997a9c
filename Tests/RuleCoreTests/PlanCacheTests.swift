import EnvKeys
import Foundation
import Testing

@testable import RuleCore

/// Page plans: reused where the keys their look-ups read are the same, made anew where one
/// differs, and never kept when a look-up inside failed.
@Suite struct PlanCacheTests {
  @Test func aPlanIsReusedWhereItsKeysAreTheSameAndMadeAnewWhereOneDiffers() throws {
    let root = try context("task = 'edit' => title = 'Editing'")
    var made = 0
    func plan(_ context: RuleContext) -> String {
      context.planned("title") { context in
        made += 1
        return context.title
      }
    }
    let editing = root.with(Keys.Task.self, "edit")
    #expect(plan(editing) == "Editing")
    #expect(plan(editing) == "Editing")
    #expect(plan(root.with(Keys.Task.self, "list")) == "D2S")
    #expect(plan(root.with(Keys.Task.self, "edit")) == "Editing")
    #expect(made == 2)
  }

  @Test func aPlanWhoseLookUpFailedIsNotKept() throws {
    let root = try context(
      """
      *true* => title = navigationBarTitle
      *true* => navigationBarTitle = title
      """)
    for _ in 0..<2 {
      let (value, errors) = root.engine.collectingReadErrors {
        root.planned("cycle") { $0.title }
      }
      // The default, and the error every time: a plan made over an error is not reused.
      #expect(value == "D2S")
      #expect(errors.first is RuleCycleError)
    }
  }

  @Test func aKeySetExplicitlyAfterACachedAnswerChangesThePlan() throws {
    let root = try context("*true* => title = 'From rule'")
    #expect(root.title == "From rule")  // the answer is now in the rule cache
    func plan(_ context: RuleContext) throws -> String {
      try context.planned("title, significant") { context in
        try context.value(Keys.Title.self, readingAnyOf: [Keys.Task.self]).value
      }
    }
    #expect(try plan(root) == "From rule")
    #expect(try plan(root.with(Keys.Title.self, "Set")) == "Set")
  }
}
