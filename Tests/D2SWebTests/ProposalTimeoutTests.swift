import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SWeb

/// A proposal's page whose row cannot be read in the statement timeout (another connection
/// holds its table) is a 503 that says so: before, the failed read was taken for "you may not
/// make this change, nor decide it", a 403 that told the person they lacked a permission.
@Suite(.enabled(if: ShopFixture.hasPostgreSQL, "no PostgreSQL test server"))
struct ProposalTimeoutTests {
  @Test(.timeLimit(.minutes(1)))
  func aProposalWhoseRowIsLockedIsA503NotA403() async throws {
    let url = try PostgresSakila.copy()
    let app = try WebApplication.open(
      url, rules: [WebEditingTests.demoRules], connections: 2, statementTimeout: 3)
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let proposed = try await FormReadTransactionTests.call(
      app, mike, scope: "propose", "edit",
      #"{"entity":"Customer","key":1,"values":{"lastName":"SMYTHE"},"seen":{"lastName":"SMITH"}}"#
    )
    let path = try #require(
      Page.matches(#"(/-/proposals/[A-Za-z0-9_-]+)"#, in: proposed).first, "\(proposed)")
    #expect(await mike.get(path).status == 200)

    let locker = try PostgreSQLAdaptor(url: url)
    try locker.executeScript("BEGIN; LOCK TABLE customer IN ACCESS EXCLUSIVE MODE")
    let locked = await mike.get(path)
    try locker.executeScript("COMMIT")
    #expect(locked.status == 503, "\(locked.status) \(locked.body)")
    #expect(locked.body.contains("the page took longer than the server allows"))
    #expect(await mike.get(path).status == 200)
  }
}
