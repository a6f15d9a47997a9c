import D2SModel
import D2STesting
import Foundation
import Qualifiers
import SQLiteAdaptor
import Testing

/// Background counts along an integer key, in key ranges, against `count(*)`: dense keys
/// over many ranges, and keys at the integer's ends (no range may overflow).
@Suite struct KeyRangeCountTests {
  func database(_ script: String) throws -> (Database, URL) {
    let folder = try TestFolders.make("d2s-keyrange")
    let path = folder.appendingPathComponent("count.db").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let adaptor = try SQLiteAdaptor(path: path)
    try adaptor.executeScript(script)
    return (try Database(adaptor: adaptor), folder)
  }

  func expectBackgroundCountsAsCount(_ database: Database, qualifier: String?) throws {
    let specification = FetchSpecification(
      entityName: "Item", qualifier: try qualifier.map { try QualifierParser.parse($0) })
    let count = try #require(try database.startCount(specification))
    #expect(
      count.wait(upTo: .seconds(30)) == (try database.count(specification)), "\(qualifier ?? "all")"
    )
  }

  @Test func denseKeysOverManyRanges() throws {
    let (database, folder) = try database(
      """
      CREATE TABLE item (item_id INTEGER PRIMARY KEY, kind TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
        INSERT INTO item SELECT i, CASE i % 3 WHEN 0 THEN 'a' ELSE 'b' END FROM n;
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    for qualifier in [nil, "kind = 'a'", "kind = 'none'"] {
      try expectBackgroundCountsAsCount(database, qualifier: qualifier)
    }
  }

  @Test func keysAtTheIntegersEnds() throws {
    let (database, folder) = try database(
      """
      CREATE TABLE item (item_id INTEGER PRIMARY KEY, kind TEXT NOT NULL);
      INSERT INTO item VALUES (-9223372036854775808, 'a'), (-5, 'b'), (0, 'a'), (7, 'a'),
        (1000000000000000, 'b'), (9223372036854775807, 'a');
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    for qualifier in [nil, "kind = 'a'"] {
      try expectBackgroundCountsAsCount(database, qualifier: qualifier)
    }
  }
}
