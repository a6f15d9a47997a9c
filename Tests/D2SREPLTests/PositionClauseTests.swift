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
}
