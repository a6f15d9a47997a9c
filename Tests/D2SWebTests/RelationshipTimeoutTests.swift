import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SWeb

/// An object's page whose to-one cannot be read in the statement timeout (another connection
/// holds its table) is a 503 that says the page took too long: before, it was a 200 page
/// without the to-one, as if the row had none.
@Suite(.enabled(if: ShopFixture.hasPostgreSQL, "no PostgreSQL test server"))
struct RelationshipTimeoutTests {
  static let schema = """
    CREATE TABLE owner (id serial PRIMARY KEY, name text NOT NULL);
    CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL,
      owner_id integer REFERENCES owner (id));
    INSERT INTO owner (name) VALUES ('ann-the-owner');
    INSERT INTO item (name, owner_id) VALUES ('lamp', 1);
    """

  @Test(.timeLimit(.minutes(1)))
  func aToOneLockedPastTheTimeoutIsA503NotAPageWithoutIt() async throws {
    let url = try PostgresSakila.database(from: Self.schema, prefix: "owners")
    let app = try WebApplication.open(url, connections: 2, statementTimeout: 3)
    let client = WebClient(app)
    let before = await client.get("/Item/1")
    #expect(before.status == 200)
    #expect(before.body.contains("ann-the-owner"))

    let locker = try PostgreSQLAdaptor(url: url)
    try locker.executeScript("BEGIN; LOCK TABLE owner IN ACCESS EXCLUSIVE MODE")
    let locked = await client.get("/Item/1")
    try locker.executeScript("COMMIT")
    #expect(locked.status == 503, "\(locked.status) \(locked.body)")
    #expect(locked.body.contains("the page took longer than the server allows"))

    let after = await client.get("/Item/1")
    #expect(after.status == 200)
    #expect(after.body.contains("ann-the-owner"))
  }

  /// An agent's `inspect` of a film whose language is locked past the timeout is a failed
  /// call, not an answer without the language.
  /// A refusal made on the missing value is not the answer either: a rule that forbids
  /// editing a film without a language ("you may not edit", 403) gives way to the reason.
  @Test(.timeLimit(.minutes(1)))
  func aRefusalMadeOnAnUnreadToOneIsA503() async throws {
    let url = try PostgresSakila.copy()
    let rule = try WebFixtures.ruleFile(
      "entity.name = 'Film' AND object.language = nil => isObjectEditable = false ; high")
    let app = try WebApplication.open(
      url, rules: [WebEditingTests.demoRules, rule], connections: 2, statementTimeout: 3)
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    #expect(await mike.get("/Film/1/-/edit").status == 200)
    let locker = try PostgreSQLAdaptor(url: url)
    try locker.executeScript("BEGIN; LOCK TABLE language IN ACCESS EXCLUSIVE MODE")
    let locked = await mike.get("/Film/1/-/edit")
    try locker.executeScript("COMMIT")
    #expect(locked.status == 503, "\(locked.status) \(locked.body)")
  }

  @Test(.timeLimit(.minutes(1)))
  func anAgentsCallWhoseToOneIsLockedFails() async throws {
    let url = try PostgresSakila.copy()
    let app = try WebApplication.open(
      url, rules: [WebEditingTests.demoRules], connections: 2, statementTimeout: 3)
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let inspect = { (scope: String) in
      try await FormReadTransactionTests.call(
        app, mike, scope: scope, "inspect", #"{"entity":"Film","key":1}"#)
    }
    let before = try await inspect("read")
    #expect(before.contains("English"), "\(before)")

    let locker = try PostgreSQLAdaptor(url: url)
    try locker.executeScript("BEGIN; LOCK TABLE language IN ACCESS EXCLUSIVE MODE")
    let locked = try await inspect("read")
    try locker.executeScript("COMMIT")
    #expect(locked.contains("\"isError\":true"), "\(locked)")
    #expect(!locked.contains("ACADEMY DINOSAUR"), "\(locked)")
  }
}
