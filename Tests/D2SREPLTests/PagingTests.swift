import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Keyset paging through the REPL on SQLite and PostgreSQL: `next` and `prev` over sort keys
/// with duplicates and NULLs, in both directions and mixed, with rows inserted and deleted
/// between pages.
@Suite struct PagingTests {
  /// 40 items: `score` repeats and is NULL for every fifth, `seq` is NOT NULL and indexed.
  static let fixture =
    """
    CREATE TABLE item (item_id INTEGER PRIMARY KEY, score INTEGER, name TEXT NOT NULL,
      seq INTEGER NOT NULL);
    CREATE INDEX item_seq ON item (seq);
    """
    + (1...40).map { i in
      "INSERT INTO item VALUES (\(i), \(i % 5 == 0 ? "NULL" : String(i % 4)), 'item \(41 - i)', \(i * 10));"
    }.joined(separator: "\n")

  /// A session on a fresh copy of the fixture, printing JSON pages.
  static func session(_ server: TestServer, sql: String = fixture) throws -> REPLSession {
    let session = try REPLSession(width: nil, defaultLimit: 20)
    let target =
      server == .sqlite
      ? try TestDatabases.sqliteFile(sql, named: "items")
      : try PostgresSakila.database(from: sql, prefix: "paging")
    _ = try session.run("open \(target)")
    _ = try session.run("platform = 'json'")
    return session
  }

  /// A page's row keys (the item ids) and its JSON object.
  static func page(_ json: String) throws -> (ids: [Int], object: [String: Any]) {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let rows = try #require(object["rows"] as? [[String: Any]])
    let ids = try rows.map { row in
      try #require((row["key"] as? [Any])?.first as? Int)
    }
    return (ids, object)
  }

  /// An item as the test orders it: score (NULL first), then name, then id.
  struct Item {
    var id: Int
    var score: Int?
    var name: String
  }

  /// `a` comes before `b` in `order` (`score`, `score desc`, `score desc, name`), NULLs first.
  static func precedes(_ a: Item, _ b: Item, _ order: String) -> Bool {
    func compare(_ x: Int?, _ y: Int?, descending: Bool) -> ComparisonResult {
      switch (x, y) {
      case (nil, nil): return .orderedSame
      case (nil, _): return .orderedAscending
      case (_, nil): return .orderedDescending
      case (let x?, let y?):
        if x == y { return .orderedSame }
        return (x < y) != descending ? .orderedAscending : .orderedDescending
      }
    }
    var result = compare(a.score, b.score, descending: order.hasPrefix("score desc"))
    if result == .orderedSame, order.hasSuffix(", name") {
      result =
        a.name == b.name ? .orderedSame : a.name < b.name ? .orderedAscending : .orderedDescending
    }
    return result == .orderedSame ? a.id < b.id : result == .orderedAscending
  }

  static var items: [Item] {
    (1...40).map { Item(id: $0, score: $0 % 5 == 0 ? nil : $0 % 4, name: "item \(41 - $0)") }
  }

  @Test(arguments: TestServer.available, ["score", "score desc", "score desc, name", "seq desc"])
  func nextWalksTheListOnceAndPrevWalksBack(server: TestServer, order: String) throws {
    let session = try Self.session(server)
    let whole = try Self.page(try session.run("list Item order by \(order) limit 100")).ids
    #expect(whole.count == 40)
    if order.hasPrefix("score") {
      #expect(whole == Self.items.sorted { Self.precedes($0, $1, order) }.map(\.id))
    }
    var pages = [try Self.page(try session.run("list Item order by \(order) limit 7"))]
    while let next = try? session.run("next") { pages.append(try Self.page(next)) }
    #expect(pages.flatMap(\.ids) == whole, "every row once, in order")
    #expect(pages.map(\.ids.count) == [7, 7, 7, 7, 7, 5])
    #expect(throws: REPLError.self) { try session.run("next") }
    let windows = pages.map { ($0.object["window"] as? [String: Any])?["offset"] as? Int }
    #expect(windows == [0, 7, 14, 21, 28, 35])
    var back: [[Int]] = []
    while let previous = try? session.run("prev") { back.append(try Self.page(previous).ids) }
    #expect(back == pages.dropLast().reversed().map(\.ids), "prev retraces the pages")
    #expect(throws: REPLError.self) { try session.run("prev") }
  }

  @Test(arguments: TestServer.available, ["score", "score desc, name"])
  func rowsChangedBetweenPagesNeitherRepeatNorSkip(server: TestServer, order: String) throws {
    let session = try Self.session(server)
    let adaptor = try #require(session.context.database?.adaptor)
    var items = Self.items
    var shown = try Self.page(try session.run("list Item order by \(order) limit 6")).ids
    var present = Set(items.map(\.id))
    var behind: Set<Int> = []
    var ahead: Set<Int> = []
    var nextID = 100
    for step in 0..<20 {
      let last = try #require(items.first { $0.id == shown.last })
      // One row before the position, one after it; and a row shown before is deleted.
      for (score, isAhead) in [(nil as Int?, false), (3, true), (1, step % 2 == 0)] {
        let item = Item(id: nextID, score: score, name: "new \(nextID)")
        nextID += 1
        guard Self.precedes(item, last, order) != isAhead else { continue }
        try adaptor.execute(
          SQLStatement(
            raw:
              "INSERT INTO item VALUES (\(item.id), \(score.map(String.init) ?? "NULL"), '\(item.name)', \(item.id))"
          ))
        items.append(item)
        if isAhead { ahead.insert(item.id) } else { behind.insert(item.id) }
      }
      if let gone = shown.first, step % 3 == 0 {
        try adaptor.execute(SQLStatement(raw: "DELETE FROM item WHERE item_id = \(gone)"))
        present.remove(gone)
      }
      guard let next = try? session.run("next") else { break }
      shown += try Self.page(next).ids
    }
    #expect(!ahead.isEmpty && !behind.isEmpty && present.count < 40, "the list did change")
    #expect(Set(shown).count == shown.count, "no row shown twice")
    #expect(present.isSubset(of: Set(shown)), "every row present throughout is shown")
    #expect(ahead.isSubset(of: Set(shown)), "rows inserted ahead are shown")
    #expect(behind.isDisjoint(with: Set(shown)), "rows inserted behind are not")
  }

  @Test(arguments: TestServer.available)
  func offsetStillJumpsAndNextContinuesFromThere(server: TestServer) throws {
    let session = try Self.session(server)
    let jumped = try Self.page(try session.run("list Item order by seq limit 5 offset 30"))
    #expect(jumped.ids == [31, 32, 33, 34, 35])
    let next = try Self.page(try session.run("next"))
    #expect(next.ids == [36, 37, 38, 39, 40])
    #expect((next.object["window"] as? [String: Any])?["offset"] as? Int == 35)
    #expect(try Self.page(try session.run("prev")).ids == [31, 32, 33, 34, 35])
  }

  /// `next` continues from the page shown last, whatever came between: a failed command
  /// changes nothing, and a list the session no longer shows is never moved.
  @Test func nextContinuesAfterAFailedCommandAndNeverMovesAnotherList() throws {
    let session = try Self.session(.sqlite)
    _ = try session.run("list Item order by seq limit 5")
    #expect(try Self.page(try session.run("next")).ids == [6, 7, 8, 9, 10])
    #expect(throws: (any Error).self) { try session.run("list Item where nosuch = 1") }
    #expect(try Self.page(try session.run("next")).ids == [11, 12, 13, 14, 15])
    _ = try session.run("inspect Item 3")
    #expect(throws: REPLError.self) { try session.run("next") }
    _ = try session.run("list Item order by seq desc limit 5")
    #expect(try Self.page(try session.run("next")).ids == [35, 34, 33, 32, 31])
    #expect(try Self.page(try session.run("prev")).ids == [40, 39, 38, 37, 36])
  }
}
