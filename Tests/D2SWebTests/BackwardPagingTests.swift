import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// Walking a list backwards by its Previous links ends on the list's first window, with no
/// Previous link: when exactly a window's rows preceded, the window was taken as a positioned
/// one and offered a Previous link to itself, so a walk back read rows again (1,037 rows for
/// 1,000 films).
@Suite struct BackwardPagingTests {
  static func rows(_ html: String) -> [String] {
    Page.matches(#"<tr><td><a href="(/Film/[0-9]+)""#, in: html)
  }

  @Test(arguments: ["", "&order=rating"])
  func walkingBackReadsEveryRowOnceAndStopsAtTheFirst(order: String) async throws {
    let app = try WebFixtures.sakila(configuration: .init(pageCacheBytes: 0))
    var forward: [String] = []
    var page = await app.get("/Film?limit=100\(order)")
    var last = page
    for _ in 0..<20 {
      forward += Self.rows(page.body)
      last = page
      guard let next = Page.link(rel: "next", in: page.body) else { break }
      page = await app.get(next)
    }
    #expect(forward.count == 1000 && Set(forward).count == 1000)
    var backward = Self.rows(last.body)
    page = last
    for _ in 0..<20 {
      guard let previous = Page.link(rel: "prev", in: page.body) else { break }
      page = await app.get(previous)
      #expect(page.status == 200)
      backward = Self.rows(page.body) + backward
    }
    #expect(backward == forward, "\(backward.count) rows walking back")
    #expect(Page.link(rel: "prev", in: page.body) == nil)
  }
}
