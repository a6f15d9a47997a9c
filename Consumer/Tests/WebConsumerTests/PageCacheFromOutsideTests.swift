import D2SModel
import D2STesting
import D2SWeb
import SQLiteAdaptor
import Testing

/// The page cache as a user's package meets it: an anonymous page is served again only while
/// the database is unchanged, and `pageCacheBytes: 0` renders every request.
@Suite struct PageCacheFromOutsideTests {
  static let schema = """
    CREATE TABLE shelf (id INTEGER PRIMARY KEY, label TEXT);
    INSERT INTO shelf VALUES (1, 'oak');
    """

  @Test(arguments: [0, 1 << 20])
  func anotherProgramsWriteShowsAtOnce(pageCacheBytes: Int) async throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "shelves")
    let app = try WebApplication.open(
      path,
      configuration: .init(pageCacheBytes: pageCacheBytes, pageCacheLifetime: .seconds(3600)))
    for _ in 0..<3 {
      #expect(await app.respond(to: WebRequest(target: "/Shelf/1")).body.contains("oak"))
    }
    let other = try SQLiteAdaptor(path: path)
    let before = try #require(try other.contentVersion())
    try other.execute(SQLStatement(raw: "UPDATE shelf SET label = 'pine' WHERE id = 1"))
    #expect(try other.contentVersion() != before)
    for _ in 0..<3 {
      let page = await app.respond(to: WebRequest(target: "/Shelf/1")).body
      #expect(page.contains("pine") && !page.contains("oak"))
    }
  }
}
