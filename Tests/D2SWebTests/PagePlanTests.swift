import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// Page plans (what a page decides from the rules alone, kept across requests) are reused
/// only where every key their rules read is the same: a rule that reads the user or the object
/// changes that user's or that object's page, and no other, whatever order pages are asked in.
@Suite struct PagePlanTests {
  /// The demo rules, and rules that read the user, the object and the platform.
  static let rules = """
    user.username = 'Mike' AND entity.name = 'Store' => isEntityReachable = false ; high
    object.title = 'ACADEMY DINOSAUR' AND propertyKey = 'length' => displayNameForProperty = 'Dinosaur minutes' ; high
    user.username = 'Jon' AND task = 'list' AND entity.name = 'Film' AND propertyKey = 'length' => displayNameForProperty = 'Minutes for Jon' ; high
    object.title = 'ACE GOLDFINGER' AND propertyKey = 'rentalDuration' AND task = 'list' => formatter = 'minutesDuration' ; high
    platform = 'json' AND task = 'list' AND entity.name = 'Film' => displayPropertyKeys = ('title', 'length') ; high

    """

  /// The demo over a copy of Sakila on one connection (one engine: every request meets the
  /// plans the ones before it made), with the page cache off.
  static func app() throws -> WebApplication {
    let path = try SakilaSQLite.copy()
    try LinkEditingTests.givePasswordToJon(TestBackend(kind: .sqlite, target: path))
    return try WebApplication.open(
      path, rules: [WebEditingTests.demoRules, try WebFixtures.ruleFile(rules)],
      configuration: .init(pageCacheBytes: 0), connections: 1)
  }

  /// Plans reused and made so far, on the application's one connection.
  static func plans(_ app: WebApplication) async throws -> (hits: Int, misses: Int) {
    try await app.pool.withDatabase { app.pageApplication(for: $0).base.planStatistics }
  }

  static func entityLinks(_ page: String) -> Set<String> {
    Set(Page.links(page).filter { ["/Store", "/Film", "/Customer"].contains($0) })
  }

  @Test func aRuleReadingTheUserChangesOnlyThatUsersPages() async throws {
    let app = try Self.app()
    let mike = WebClient(app)
    let jon = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    #expect(await jon.login("Jon", "12345").status == 303)
    let anonymous = WebClient(app)
    let all: Set = ["/Store", "/Film", "/Customer"]
    // Asked in turns, so that each meets plans the others made.
    // Three rounds: each user has plans of their own (the Store rule reads the user for every
    // entity's reach), made in the first and reused in the two after.
    for round in 0..<3 {
      #expect(Self.entityLinks(await anonymous.get("/").body) == all, "round \(round)")
      #expect(Self.entityLinks(await mike.get("/").body) == all.subtracting(["/Store"]))
      #expect(Self.entityLinks(await jon.get("/").body) == all, "round \(round)")
      let jonsList = await jon.get("/Film?limit=3").body
      #expect(jonsList.contains("Minutes for Jon"))
      for other in [anonymous, mike] {
        let list = await other.get("/Film?limit=3").body
        #expect(list.contains(">Length<") && !list.contains("Minutes for Jon"))
      }
    }
    let (hits, misses) = try await Self.plans(app)
    // Plans were made and reused: the test is about them.
    #expect(misses > 0 && hits > misses, "\(hits) hits, \(misses) misses")
  }

  @Test func aRuleReadingTheObjectChangesOnlyThatObjectsPage() async throws {
    let app = try Self.app()
    for _ in 0..<2 {
      let dinosaur = await app.get("/Film/1").body
      #expect(dinosaur.contains("Dinosaur minutes"))
      let other = await app.get("/Film/2").body
      #expect(other.contains(">Length<") && !other.contains("Dinosaur minutes"))
      // The list's column is the column's, not a row's; a formatter a rule gives one row
      // shows in that row's cell alone.
      let list = await app.get("/Film?limit=3&order=title").body
      #expect(list.contains("ACADEMY DINOSAUR") && !list.contains("Dinosaur minutes"))
      let cells = Page.matches(#"<td[^>]*>([0-9][^<]*)</td>"#, in: list)
      #expect(
        cells.contains("6 days") && cells.contains("3m") && !cells.contains("3 days"), "\(cells)")
    }
  }

  @Test func aRuleReadingThePlatformChangesOnlyThatFormat() async throws {
    let app = try Self.app()
    for _ in 0..<2 {
      let json = await app.get("/Film?limit=2", accept: "application/json").body
      let columns = json.components(separatedBy: "\"rows\"").first ?? ""
      #expect(columns.contains("\"key\":\"length\"") && !columns.contains("\"key\":\"rating\""))
      let html = await app.get("/Film?limit=2").body
      #expect(html.contains(">Rating<"))
      // A sort by a column only HTML shows: the planned names are the format's.
      #expect(await app.get("/Film?limit=2&order=rating").status == 200)
    }
  }
}
