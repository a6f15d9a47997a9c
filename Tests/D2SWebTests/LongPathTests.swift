import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A key path follows at most 16 relationships: a path around a cycle of to-ones (a store's
/// manager's store's manager…) in an order or a filter is a 400 that says so. Before, 700 such
/// steps made one statement that PostgreSQL ran for 28 s, past an anonymous visitor's 10 s.
@Suite struct LongPathTests {
  @Test func aLongPathIsRefusedAndAShortOneServed() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules],
      configuration: .init(pageCacheBytes: 0))
    let long = "store." + Array(repeating: "managerStaff.store", count: 20).joined(separator: ".")
    for target in [
      "/Customer?order=" + (long + ".id").webQuery,
      "/Customer?where=" + (long + ".id = 1").webQuery,
    ] {
      let page = await app.get(target)
      #expect(page.status == 400, "\(target)")
      #expect(page.body.contains("at most 16 relationships"), "\(page.body.prefix(600))")
    }
    let short = await app.get("/Customer?order=" + "store.managerStaff.lastName".webQuery)
    #expect(short.status == 200)
    let facet = await app.get("/Film?where.actors.firstName=%27X%27")
    #expect(facet.status == 400 && facet.body.contains("an order or a facet follows to-ones only"))
  }
}
