import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A typed backslash is matched as typed, on both databases: in the search box (`back\`), on
/// the query page ("contains `\`"), and as `\\` in a `like` pattern. Before, a trailing one
/// escaped the wildcard after it (finding nothing), and SQLite's GLOB read `\\` as two.
@Suite struct BackslashSearchTests {
  static func fixture(_ kind: ShopFixture.Kind) -> String {
    let integer = kind == .sqlite ? "INTEGER" : "integer"
    return """
      CREATE TABLE item (id \(integer) PRIMARY KEY, name TEXT);
      INSERT INTO item VALUES (1, 'back\\slash'), (2, 'a*b'), (3, 'back'), (4, 'k\\ end');
      """
  }

  static func names(_ app: WebApplication, _ target: String) async throws -> Set<String> {
    let page = await app.get(target)
    #expect(page.status == 200 || page.status == 303, "\(target): \(page.status)")
    let location = page.header("Location")
    let list = location == nil ? page : await app.get(location!)
    return Set(Page.matches(#"href="/Item/[0-9]+">([^<]*)<"#, in: list.body))
  }

  @Test(arguments: ShopFixture.kinds)
  func aBackslashIsMatchedAsTyped(kind: ShopFixture.Kind) async throws {
    let target = try kind.database(Self.fixture(kind), named: "backslash")
    let app = try WebApplication.open(
      target, rules: [try WebFixtures.ruleFile("*true* => searchPropertyKeys = ('name')")],
      configuration: .init(pageCacheBytes: 0))
    #expect(try await Self.names(app, "/Item?q=back%5C") == ["back\\slash"])
    #expect(try await Self.names(app, "/Item?q=back%5Cs") == ["back\\slash"])
    #expect(try await Self.names(app, "/Item?q=a*") == ["a*b"])
    #expect(
      try await Self.names(app, "/Item/-/query?run=1&name=%5C&name.op=contains")
        == ["back\\slash", "k\\ end"])
    #expect(
      try await Self.names(app, "/Item/-/query?run=1&name=%5C%20e&name.op=contains") == ["k\\ end"])
    let pattern = #"name like 'back\\\\*'"#
    #expect(try await Self.names(app, "/Item?where=" + pattern.webQuery) == ["back\\slash"])
  }
}
