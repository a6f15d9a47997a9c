import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

/// The second connection counts run on: one that could not be opened (a server refusing new
/// connections for a moment) is opened on a later count, never given up for the connection's
/// life, when every count would run on the first connection without its time budget.
@Suite(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
struct SideConnectionTests {
  @Test(.timeLimit(.minutes(1)))
  func aSecondConnectionThatCouldNotBeOpenedIsOpenedLater() throws {
    let url = try PostgresSakila.copy()
    let name = try #require(
      url.split(separator: " ").first { $0.hasPrefix("dbname=") }?.dropFirst(7))
    let database = try Database(adaptor: PostgreSQLAdaptor(url: url))
    let rentals = FetchSpecification(entityName: "Rental")
    #expect(try database.count(rentals) == 16_044)  // the first connection is open
    let admin = try PostgreSQLAdaptor(url: try PostgresSakila.conninfo("postgres"))
    try admin.executeScript("ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
    #expect(try database.startCount(rentals) == nil, "no second connection now")
    try admin.executeScript("ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
    Thread.sleep(forTimeInterval: 1.2)
    let count = try #require(try database.startCount(rentals), "opened at a later count")
    #expect(count.wait(upTo: .seconds(30)) == 16_044)
  }
}
