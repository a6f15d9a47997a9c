import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A rule that makes an entity unreachable for one user, or for anonymous visitors only, holds
/// on every page URL, as on the entity list: the names a page resolves are resolved with the
/// page's user. Before, they were resolved as for an anonymous visitor: Mike reached Store's
/// pages by their URLs, and a rule meant for anonymous visitors hid Payment from him.
@Suite struct UserReachTests {
  static let rules = """
    user.username = 'Mike' AND entity.name = 'Store' => isEntityReachable = false ; high
    user = nil AND entity.name = 'Payment' => isEntityReachable = false ; high

    """

  @Test func reachIsTheUsersOnEveryPage() async throws {
    let path = try SakilaSQLite.copy()
    let app = try WebApplication.open(
      path, rules: [WebEditingTests.demoRules, try WebFixtures.ruleFile(Self.rules)],
      configuration: .init(pageCacheBytes: 0))
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    for target in [
      "/Store", "/Store/1", "/Store?format=json", "/Store/1/-/edit", "/Store/-/new",
      "/Store/-/new?format=json", "/Store/1/-/delete", "/Store/1/-/delete?format=json",
      "/Store/-/query", "/Staff/1/store",
    ] {
      #expect(await mike.get(target).status == 404, "Mike: \(target)")
    }
    #expect(await mike.get("/Payment?limit=3").status == 200)
    #expect(await mike.get("/Payment/1").status == 200)
    // Anonymous visitors: Payment is hidden, Store is not.
    let anonymous = WebClient(app)
    #expect(await anonymous.get("/Payment?limit=3").status == 404)
    #expect(await anonymous.get("/Payment/1").status == 404)
    #expect(await anonymous.get("/Store?limit=3").status == 200)
  }
}
