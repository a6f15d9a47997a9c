import D2SModel
import D2STesting
import Testing

@testable import PostgreSQLAdaptor

/// A table's row estimate (`pg_class.reltuples`) is read once per
/// `PostgreSQLAdaptor.estimateLifetime`: a list page asks for it on every request, and the
/// planner changes it only when the table is analyzed. A script the connection runs (which
/// may analyze) makes it read anew.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct PostgreSQLEstimateTests {
  @Test func anEstimateIsReadOncePerLifetimeAndAnewAfterAScript() throws {
    let adaptor = try PostgreSQLAdaptor(url: try PostgresSakila.copy())
    let database = try Database(adaptor: adaptor)
    let actor = try #require(database.model.entity(named: "Actor"))
    try adaptor.executeScript("ANALYZE actor")
    #expect(try adaptor.estimatedRowCount(of: actor) == 200)
    let statements = adaptor.statementCount
    #expect(try adaptor.estimatedRowCount(of: actor) == 200)
    #expect(adaptor.statementCount == statements, "the estimate was read once")
    try adaptor.executeScript(
      """
      INSERT INTO actor (first_name, last_name)
        SELECT 'A' || i, 'B' || i FROM generate_series(1, 300) AS i;
      ANALYZE actor;
      """)
    #expect(try adaptor.estimatedRowCount(of: actor) == 500, "read anew after the script")
    // Another table's estimate is its own.
    let language = try #require(database.model.entity(named: "Language"))
    try adaptor.executeScript("ANALYZE language")
    #expect(try adaptor.estimatedRowCount(of: language) == 6)
    #expect(try adaptor.estimatedRowCount(of: actor) == 500)
  }
}
