import D2STesting
import Foundation
import NIOCore
import Testing

@testable import D2SWeb

/// A list's CSV holds what `sqlite3 -csv` prints for the same rows: a date column's day
/// without a time, a time column's time, a foreign key that leads to no row as its value
/// (it was an empty field, as NULL), and text that is not UTF-8 as its bytes (it was `\xff`
/// escapes).
@Suite struct CSVAsStoredTests {
  static let schema = """
    PRAGMA foreign_keys = OFF;
    CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE thing (id INTEGER PRIMARY KEY, d DATE, t TIME, owner_id INTEGER
      REFERENCES owner (id), raw TEXT);
    INSERT INTO owner VALUES (1, 'ann');
    INSERT INTO thing VALUES (1, '2024-01-02', '10:11:12', 1, 'ok'),
      (2, '2024-02-29', '23:59:59', 999, CAST(x'fffe41c3' AS TEXT));
    """

  @Test func theValuesAreTheShellsBytes() async throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "stored")
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    let page = await app.get("/Thing?format=csv&order=id")
    #expect(page.status == 200)
    let lines = Array(page.bytes.readableBytesView).split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    try #require(lines.count == 3, "\(String(buffer: page.bytes))")
    let second = Array(lines[2]).split(
      separator: UInt8(ascii: ","), omittingEmptySubsequences: false
    )
    .map { Array($0) }
    let expected: [[UInt8]] = [
      Array("2024-02-29".utf8), Array("23:59:59".utf8), Array("999".utf8),
      [0xFF, 0xFE, 0x41, 0xC3, UInt8(ascii: "\r")],
    ]
    let header = String(decoding: lines[0], as: UTF8.self)
    #expect(second == expected, "\(header): \(second)")
    // A window (titles fetched for its rows) and the page: the same value.
    let window = await app.get("/Thing?format=csv&order=id&limit=5")
    #expect(Array(window.bytes.readableBytesView) == Array(page.bytes.readableBytesView))
    #expect(await app.get("/Thing?order=id").body.contains(">999<"))
    let first = String(decoding: lines[1], as: UTF8.self)
    #expect(first.hasPrefix("2024-01-02,10:11:12,1,ok"), "\(first)")
  }
}
