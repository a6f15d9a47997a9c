import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// `ilike` and the search box fold every letter's case on both databases, as the rules'
/// in-memory `ilike` does: on SQLite they went through `lower()`, which folds ASCII letters
/// only, so `émile` missed `ÉMILE` there while PostgreSQL found it.
@Suite struct UnicodeCaseFoldTests {
  /// Names in several scripts and cases (an `item` table, as `BackslashSearchTests` reads).
  static let fixture = """
    CREATE TABLE item (id integer PRIMARY KEY, name TEXT);
    INSERT INTO item VALUES (1, 'ÉMILE ZOLA'), (2, 'émile durand'), (3, 'Emile Plain'),
      (4, 'ΣΟΦΙΑ Π'), (5, 'Ölaf'), (6, 'MILE END'), (7, 'İSTANBUL');
    """

  static func names(_ app: WebApplication, _ target: String) async throws -> Set<String> {
    try await BackslashSearchTests.names(app, target)
  }

  @Test(arguments: ShopFixture.kinds)
  func everyLetterIsFoldedInSearchesAndIlike(kind: ShopFixture.Kind) async throws {
    let target = try kind.database(Self.fixture, named: "casefold")
    let app = try WebApplication.open(
      target, rules: [try WebFixtures.ruleFile("*true* => searchPropertyKeys = ('name')")],
      configuration: .init(pageCacheBytes: 0))
    #expect(try await Self.names(app, "/Item?q=%C3%A9mile") == ["ÉMILE ZOLA", "émile durand"])
    #expect(try await Self.names(app, "/Item?q=%C3%89MILE") == ["ÉMILE ZOLA", "émile durand"])
    #expect(try await Self.names(app, "/Item?q=%C3%B6laf") == ["Ölaf"])
    #expect(try await Self.names(app, "/Item?q=%CF%83%CE%BF%CF%86") == ["ΣΟΦΙΑ Π"])
    let filter = "name ilike 'émile*'"
    #expect(
      try await Self.names(app, "/Item?where=" + filter.webQuery) == ["ÉMILE ZOLA", "émile durand"])
    // `İ` folds to `i`, as PostgreSQL's lower() folds it (not to `i` and a combining dot).
    #expect(try await Self.names(app, "/Item?q=istanbul") == ["İSTANBUL"])
    let dotted = "name ilike '?stanbul'"
    #expect(try await Self.names(app, "/Item?where=" + dotted.webQuery) == ["İSTANBUL"])
    // ASCII folds as before; `like` is still exact.
    #expect(try await Self.names(app, "/Item?q=emile") == ["Emile Plain"])
    let exact = "name like 'ÉMILE*'"
    #expect(try await Self.names(app, "/Item?where=" + exact.webQuery) == ["ÉMILE ZOLA"])
  }

  @Test func textThatIsNotUTF8HasItsASCIILettersFoldedAndItsOtherBytesKept() throws {
    let adaptor = try SQLiteAdaptor(path: "sqlite::memory:")
    var folded: [String] = []
    try adaptor.query(
      SQLStatement(
        raw:
          "SELECT hex(d2s_lower(CAST(X'C94D494C45' AS TEXT))), d2s_lower(NULL) IS NULL, d2s_lower(12), d2s_lower('ÀB')"
      ), columns: [nil, nil, nil, nil]
    ) { row in folded = row.map { $0.stringValue ?? $0.intValue.map(String.init) ?? "nil" } }
    #expect(folded == ["C96D696C65", "1", "12", "àb"])
  }
}
