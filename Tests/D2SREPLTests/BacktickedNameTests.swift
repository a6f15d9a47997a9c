import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// A column whose name holds a dot or is a keyword is typed in backticks in every command
/// that names a property: `order by`, `with`, `facets … by` and `explain … for`, as in
/// `where`. Before, `` `na.me` `` was split at its dot, and `` `from` `` kept its backticks.
@Suite struct BacktickedNameTests {
  static func session() throws -> REPLSession {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE "my table.x" (id INTEGER PRIMARY KEY, "na.me" TEXT, "from" TEXT);
      INSERT INTO "my table.x" VALUES (1, 'b-name', 'x-from'), (2, 'a-name', 'y-from');
      """, named: "backticks")
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    return session
  }

  @Test func everyCommandTakesABacktickedName() throws {
    let session = try Self.session()
    let ordered = try session.run("list MyTableX order by `na.me` desc")
    let b = try #require(ordered.range(of: "b-name"))
    let a = try #require(ordered.range(of: "a-name"))
    #expect(b.lowerBound < a.lowerBound, "\(ordered)")
    let with = try session.run("list MyTableX with `na.me`")
    #expect(with.contains("a-name"), "\(with)")
    let facets = try session.run("facets MyTableX by `from`")
    #expect(facets.contains("x-from"), "\(facets)")
    let explained = try session.run("explain displayNameForProperty for `na.me`")
    #expect(!explained.contains("`"), "\(explained)")
  }
}
