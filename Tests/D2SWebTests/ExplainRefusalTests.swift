import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// `/-/why` tells a user no rule lets see explanations only that: not whether the row it
/// names exists (a 404 for `/Film/99999` and a 403 for `/Film/1` told them). For a user who
/// may, `/-/why` alone explains the entity list, `/`.
@Suite struct ExplainRefusalTests {
  @Test func aUserWhoMayNotExplainLearnsNothingOfTheRows() async throws {
    let (app, path, _) = try ExplainPageTests.app()
    let jon = WebClient(app)
    try LinkEditingTests.givePasswordToJon(TestBackend(kind: .sqlite, target: path))
    #expect(await jon.login("Jon", "12345").status == 303)
    for page in ["/Film/1", "/Film/99999", "/Nope", "/Film/1/-/edit", "/Film/99999/actors", "/"] {
      let answer = await jon.get("/-/why?" + HTML.query([("page", page)]))
      #expect(answer.status == 403, "\(page): \(answer.status)")
    }
    #expect(await jon.get("/-/why").status == 403)
  }

  @Test func whyAloneExplainsTheEntityList() async throws {
    let (app, _, _) = try ExplainPageTests.app()
    let mike = WebClient(app)
    #expect(await mike.login("Mike", "12345").status == 303)
    let page = await mike.get("/-/why")
    #expect(page.status == 200, "\(page.body)")
    #expect((await mike.get("/-/why?page=/Film/99999")).status == 404, "Mike may know")
  }
}
