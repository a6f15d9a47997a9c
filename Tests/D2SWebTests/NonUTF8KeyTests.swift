import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A row keyed by text that is not UTF-8 (SQLite keeps what it is given) is reachable: the
/// list links to it by the key's bytes (`/Item/%FFa`), and an agent's key from `list` (its
/// bytes in base64, as JSON gives them) finds it. Before, the link read `\xffa` (a 404) and
/// the agent's key found nothing.
@Suite struct NonUTF8KeyTests {
  static let fixture = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account VALUES (1, 'ann', 'secret');
    CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT);
    INSERT INTO item VALUES (CAST(x'ff61' AS TEXT), 'bytes'), ('plain', 'text');
    """

  @Test func theRowIsReachedByItsBytes() async throws {
    let path = try TestDatabases.sqliteFile(Self.fixture, named: "nonutf8key")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    let list = await app.get("/Item")
    let links = Page.links(list.body).filter { $0.hasPrefix("/Item/") }
    #expect(links.contains("/Item/%FFa"), "\(links)")
    let page = await app.get("/Item/%FFa")
    #expect(page.status == 200 && page.body.contains("bytes"), "\(page.status)")
    #expect(await app.get("/Item/plain").status == 200)
    #expect(await app.get("/Item/%FFb").status == 404)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let inspected = try await FormReadTransactionTests.call(
      app, ann, scope: "read", "inspect", #"{"entity":"Item","key":"/2E="}"#)
    #expect(inspected.contains("bytes") && !inspected.contains(#""isError":true"#), "\(inspected)")
  }
}
