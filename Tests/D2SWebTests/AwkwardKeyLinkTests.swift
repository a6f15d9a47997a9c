import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A row whose text key is empty, `-`, `.`, `..` or starts with `~` has a link that leads to
/// its own page: the key is written `~` and itself when a URL would read it as something
/// else (`/OddKey/` is the list, `/OddKey/-` the entity's pages, `.` and `..` are removed by
/// browsers). Before, those links led to the list, a 404 and other pages.
@Suite struct AwkwardKeyLinkTests {
  static let keys = ["", "-", ".", "..", "~x", "~", "plain", "a,b", "-x"]

  @Test func everyRowsLinkLeadsToItsPage() async throws {
    let values = Self.keys.enumerated().map { index, key in
      "('\(key)', 'value \(index)')"
    }
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE odd_key (k TEXT PRIMARY KEY, v TEXT NOT NULL);
      INSERT INTO odd_key VALUES \(values.joined(separator: ", "));
      """, named: "oddkeys")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    let list = await app.get("/OddKey?limit=50")
    #expect(list.status == 200)
    let links = Set(Page.matches(#"href="(/OddKey/[^"?]*)""#, in: list.body).map(Page.unescape))
    for (index, key) in Self.keys.enumerated() {
      let link = WebLinks.objectPath("OddKey", key: [.string(key)]) ?? ""
      #expect(links.contains(link), "\(key): \(link)")
      // As a browser or curl would send it: dot segments removed.
      let sent =
        URL(string: "http://127.0.0.1" + link).flatMap {
          URLComponents(url: $0.standardized, resolvingAgainstBaseURL: false)?.percentEncodedPath
        } ?? ""
      #expect(sent == link, "\(key): \(link) is sent as \(sent)")
      let page = await app.get(link)
      #expect(page.status == 200, "\(key): \(link)")
      #expect(page.body.contains("value \(index)"), "\(key): \(link)")
      let other = (index + 1) % Self.keys.count
      #expect(!page.body.contains("value \(other)<"), "\(key): \(link) is one row's page")
      let edit = await app.get(link + "/-/edit")
      #expect(edit.status == 303, "\(key): the edit form asks for a login")
    }
  }
}
