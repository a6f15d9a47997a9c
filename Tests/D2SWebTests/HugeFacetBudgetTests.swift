import D2STesting
import Foundation
import Testing

/// A facet budget too long to count in nanoseconds (a rule any rule editor may add from a
/// page) waits without limit for the counts; it never traps the server, whose pages anyone
/// may ask for.
@Suite struct HugeFacetBudgetTests {
  @Test(.enabled(if: ClientFaultTests.hasBinary, "build d2s-serve first"))
  func aFacetBudgetBeyondNanosecondsLeavesTheServerServing() throws {
    let folder = try ServeBinaryTests.folder()
    let rules = try WebFixtures.ruleFile("*true* => facetTimeBudget = 10000000000000")
    let (server, base) = try ServeBinaryTests.start(
      [try SakilaSQLite.copy(), "--rules", rules], folder: folder)
    defer { server.stop() }
    let page = try LoopbackHTTP.request("GET", base + "/Film?facet=rating&limit=3")
    #expect(page.status == 200)
    #expect(page.text.contains("PG-13"), "the facet's values, counted")
    #expect(server.process.isRunning, "\(server.log.suffix(400))")
  }
}
