import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `list … after` with no position says that a position is missing; it said "limit must be
/// a whole number", naming a clause that was fine.
@Suite struct PositionClauseTests {
  @Test(arguments: ["after", "before", "AFTER"])
  func aMissingPositionIsNamed(word: String) throws {
    #expect {
      try CommandParser.parse("list Film limit 3 \(word)")
    } throws: { "\($0)".contains("needs a position") }
    #expect {
      try CommandParser.parse("list Film \(word)")
    } throws: { "\($0)".contains("needs a position") }
  }

  @Test func aQuotedAfterIsText() throws {
    let command = try CommandParser.parse("list Film where title = 'x after'")
    #expect(command != nil)
  }

  /// `position` after a list without a limit says the list is shown whole; it said the rows
  /// had no positions ("no primary key, or no rows") of a table that has both.
  @Test func aWholeListHasNoOtherWindow() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("list Language")
    #expect {
      try session.run("position")
    } throws: { "\($0)".contains("shown whole") }
    _ = try session.run("list Language limit 2")
    #expect(try session.run("position").contains("after"))
  }
}
