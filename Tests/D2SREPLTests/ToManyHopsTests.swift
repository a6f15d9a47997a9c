import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `--max-to-many-hops` in the REPL (issue 38): off unless asked for, since a person at a
/// terminal may ask for slow queries; when given, a deeper `where` or `order by` is an error
/// that names the limit, and a many-to-many through its link table is one hop.
@Suite struct ToManyHopsTests {
  @Test func theLimitHoldsOnlyWhenGiven() throws {
    let session = try FixtureSession.open(database: try SakilaSQLite.copy())
    #expect(session.maximumToManyHops == nil)
    session.maximumToManyHops = 1
    #expect(
      try session.run("list Actor where films.title = 'ACADEMY DINOSAUR'").contains("PENELOPE"))
    do {
      _ = try session.run("list Film where actors.films.actors.films.title like '*ZZQ*' limit 1")
      Issue.record("a path of four to-many hops ran")
    } catch {
      #expect("\(error)".contains("--max-to-many-hops allows 1"), "\(error)")
    }
    #expect(throws: REPLError.self) {
      _ = try session.run("count Film where actors.films.title = 'X'")
    }
  }
}
