import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// An entity the rules make unreachable is read through no column of another's page: a path
/// across a to-one into it (`address.phone` on the demo's Customer list) is left out, and so
/// is a to-many into it (`payments`, whose count tells of its rows), on pages, in JSON and to
/// agents; the to-one itself still shows its title. Before, every customer's phone number
/// was on the list with Address unreachable.
@Suite struct UnreachableColumnTests {
  static let hidden = """
    entity.name = 'Address' => isEntityReachable = false
    entity.name = 'Payment' => isEntityReachable = false

    """

  @Test func pagesLeaveOutWhatReadsAnUnreachableEntity() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(),
      rules: [WebEditingTests.demoRules, try WebFixtures.ruleFile(Self.hidden)],
      configuration: .init(pageCacheBytes: 0))
    // 28303384290 is customer 1's phone (address 5).
    for target in ["/Customer", "/Customer?format=json", "/Customer?format=csv"] {
      let page = await app.get(target)
      #expect(page.status == 200)
      #expect(!page.body.contains("28303384290"), "\(target)")
      #expect(page.body.contains("MARY"), "\(target)")
    }
    let object = await app.get("/Customer/1")
    #expect(object.status == 200)
    #expect(!object.body.contains(">Payments<"), "no Payments count")
    #expect(object.body.contains("/Customer/1/rentals"), "Rental is reachable")
    let json = await app.get("/Customer/1?format=json")
    #expect(!json.body.contains("\"payments\""), "\(json.body.prefix(400))")
    // Without the rules, both are there.
    let open = try WebApplication.open(
      try SakilaSQLite.copy(), rules: [WebEditingTests.demoRules],
      configuration: .init(pageCacheBytes: 0))
    #expect(await open.get("/Customer").body.contains("28303384290"))
    #expect(await open.get("/Customer/1").body.contains(">Payments<"))
  }
}
