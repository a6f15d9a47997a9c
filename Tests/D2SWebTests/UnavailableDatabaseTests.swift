import D2STesting
import D2SWeb
import Foundation
import PostgreSQLAdaptor
import Testing

/// A database that goes away: 503 pages that say so (and nothing more), then pages again
/// once it is back, on new connections.
@Suite struct UnavailableDatabaseTests {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil))
  func aLostPostgreSQLIs503UntilItIsBack() async throws {
    let conninfo = try PostgresSakila.copy()
    let name = try #require(
      conninfo.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
    let app = try WebApplication.open(conninfo, connections: 2)
    #expect(await app.get("/Film/1").status == 200)
    let admin = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    try admin.executeScript(
      """
      ALTER DATABASE \(name) ALLOW_CONNECTIONS false;
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)';
      """)
    let lost = await app.get("/Film/1")
    #expect(lost.status == 503)
    #expect(lost.body.contains("the database cannot be reached"))
    #expect(
      !lost.body.contains("FATAL") && !lost.body.contains("SELECT")
        && !lost.body.contains("terminat"))
    #expect(await app.get("/-/health").status == 503)
    let again = await app.get("/Film/2")
    #expect(again.status == 503, "no new connection while the database refuses them")
    try admin.executeScript("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
    var back = 0
    for _ in 0..<5 where back != 200 {
      back = await app.get("/Film/1").status
    }
    #expect(back == 200, "pages again once the database is back")
  }
}
