import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `position` and `list … after|before POSITION`: a window's positions printed as text and
/// read back, in a later command or another session, to the same rows `next` and `prev` show.
@Suite struct PositionClauseTests {
  /// The `offset N after TOKEN` (or `before`) line of `position`'s output (a JSON session's
  /// message), if it has one.
  static func clause(_ kind: String, in output: String) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let text = object?["message"] as? String ?? output
    return text.split(separator: "\n").map(String.init).first { $0.contains(" \(kind) ") }
  }

  @Test(arguments: TestServer.available, ["score desc, name", "seq"])
  func positionsReadBackWalkTheListAsNextDoes(server: TestServer, order: String) throws {
    let list = "list item order by \(order) limit 7"
    let paging = try PagingTests.session(server)
    var byNext = [try PagingTests.page(try paging.run(list)).ids]
    for _ in 0..<10 {
      guard let next = try? paging.run("next") else { break }
      byNext.append(try PagingTests.page(next).ids)
    }
    #expect(byNext.joined().count == 40)

    // Each window from the positions the one before it printed, in a session of its own.
    var byPosition = [try PagingTests.page(try PagingTests.session(server).run(list)).ids]
    let fresh = try PagingTests.session(server)
    _ = try fresh.run(list)
    var clause = try #require(Self.clause("after", in: try fresh.run("position")))
    for _ in 0..<10 {
      let reader = try PagingTests.session(server)
      byPosition.append(try PagingTests.page(try reader.run("\(list) \(clause)")).ids)
      guard let more = Self.clause("after", in: (try? reader.run("position")) ?? "") else {
        break
      }
      clause = more
    }
    #expect(byPosition == byNext)
  }

  @Test(arguments: TestServer.available)
  func beforeShowsTheWindowPrevShows(server: TestServer) throws {
    let list = "list item order by score desc, name limit 6"
    let session = try PagingTests.session(server)
    _ = try session.run(list)
    _ = try session.run("next")
    let third = try PagingTests.page(try session.run("next")).ids
    let before = try #require(Self.clause("before", in: try session.run("position")))
    #expect(before.hasPrefix("offset 6 before "))
    let previous = try PagingTests.page(try session.run("prev")).ids
    let other = try PagingTests.session(server)
    #expect(try PagingTests.page(try other.run("\(list) \(before)")).ids == previous)
    #expect(previous != third)
    // The first window has no window before it.
    _ = try other.run(list)
    #expect(Self.clause("before", in: try other.run("position")) == nil)
  }

  @Test func aPositionOfAnotherListOrNoneIsAnErrorNeverRows() throws {
    let session = try PagingTests.session(.sqlite)
    _ = try session.run("list item order by score limit 5")
    let after = try #require(Self.clause("after", in: try session.run("position")))
    for other in [
      "list item order by score desc limit 5", "list item where seq > 100 order by score limit 5",
      "list item order by name limit 5",
    ] {
      #expect(throws: (any Error).self) { try session.run("\(other) \(after)") }
    }
    for bad in ["zz", "zz.i1", "2o8.", "x.q9"] {
      #expect(throws: (any Error).self) {
        try session.run("list item order by score limit 5 after \(bad)")
      }
    }
  }

  @Test func theClauseEndsTheLineAndNeverTakesQuotedWords() throws {
    let parsed = try CommandParser.parse("list item where name = 'a after b' limit 3")
    guard case .list(_, let clauses) = parsed else {
      Issue.record("not a list: \(String(describing: parsed))")
      return
    }
    #expect(clauses.after == nil)
    #expect(clauses.qualifier != nil)
    guard
      case .list(_, let positioned) = try CommandParser.parse(
        "list item order by name limit 3 offset 3 after k1.sitem%2039,i2")
    else {
      Issue.record("not a list")
      return
    }
    #expect(positioned.after == "k1.sitem%2039,i2")
    #expect(positioned.offset == 3 && positioned.limit == 3)
    #expect(try CommandParser.parse("position") == .position)
    let session = try PagingTests.session(.sqlite)
    #expect(throws: REPLError.self) { try session.run("position") }
  }
}
