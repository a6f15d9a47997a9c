import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import RuleCore
import Testing

@testable import Components
@testable import PostgreSQLAdaptor

/// Over PostgreSQL, an unfiltered list of a small table is counted in its rows' round trip
/// (libpq's pipeline), once both statements are prepared: the total is the same as counted
/// alone, and read anew after any commit. A filtered list counts alone (a window that is not
/// full needs no count).
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
    "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLListCountTests {
  let registry = D2SContextKVC()

  /// The Markdown list page of `Actor`, ten rows, with `qualifier`.
  func page(_ application: PageApplication, _ qualifier: Qualifier? = nil) throws -> String {
    let output = StringOutput()
    try application.render(
      PageRequest(
        task: "list", entityName: "Actor", list: ListRequest(qualifier: qualifier, limit: 10),
        platform: "markdown"), to: output)
    return output.text
  }

  @Test func anUnfilteredListIsCountedWithItsRowsAndAnew() throws {
    try D2SKeys.expose(in: registry)
    let engine = try D2SEngine.make(rules: RuleModel([]), registry: registry)
    var context = RuleContext(engine: engine)
    let url = try PostgresSakila.copy()
    let adaptor = try PostgreSQLAdaptor(url: url)
    context.database = try Database(adaptor: adaptor)
    let application = PageApplication(base: context)
    // The first two pages prepare the statements; from the third on, one round trip: both
    // statements, or the server's snapshot alone when the rows and count kept are still the
    // table's (unless another test committed since the last page).
    for round in 0..<4 {
      let before = adaptor.pipelineCount
      let asked = adaptor.snapshotAnswers.withLock { $0 }
      #expect(try page(application).contains("of 200"), "round \(round)")
      let trips = adaptor.pipelineCount - before + adaptor.snapshotAnswers.withLock { $0 } - asked
      #expect(trips == (round < 2 ? 0 : 1), "round \(round)")
    }
    // Another connection's insert shows in the next page's total.
    try PostgreSQLAdaptor(url: url).execute(
      SQLStatement(raw: "INSERT INTO actor (first_name, last_name) VALUES ('ADA', 'LOVELACE')"))
    #expect(try page(application).contains("of 201"))
    // A filtered list counts alone.
    let filtered = Qualifier.comparison(KVCPath("lastName"), .like, .string("LOVE*"))
    for _ in 0..<3 {
      let before = adaptor.pipelineCount
      #expect(try page(application, filtered).contains("LOVELACE"))
      #expect(adaptor.pipelineCount == before)
    }
  }
}
