import EnvKeys
import Foundation
import Synchronization
import Testing

@testable import RuleCore

/// One engine and its cache reached from several threads at once (as pages rendered by
/// concurrent tasks do): every answer is right. Run under ThreadSanitizer by
/// `make test-sanitized`.
@Suite struct RuleCacheConcurrencyTests {
  @Test func concurrentLookupsAgree() throws {
    let ctx = try context(
      "propertyKey = 'p1' => displayNameForProperty = 'P1'\n*true* => displayNameForProperty = 'other' ; low"
    )
    let wrong = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for n in 0..<200 {
        let key = (thread + n) % 2 == 0 ? "p1" : "p2"
        let row = ctx.with(Keys.Object.self, Person("N\(n)", nil)).with(\.propertyKey, key)
        if row.displayNameForProperty != (key == "p1" ? "P1" : "other") {
          wrong.withLock { $0 += 1 }
        }
      }
    }
    #expect(wrong.withLock { $0 } == 0)
    #expect(ctx.engine.cacheStatistics.hits > 0)
  }
}
