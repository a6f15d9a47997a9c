import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `explain`, `why-not` and `explain --tree` ask about a column a list shows through a
/// to-one (`address.phone` on the demo's Customer list), as `inspect --explain` and the web's
/// `/-/why` do. Before, each said "Customer has no property 'address.phone'".
@Suite struct ExplainKeyPathTests {
  @Test func aKeyPathColumnIsExplained() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("load \(FormatTests.demoRules)")
    _ = try session.run("list Customer limit 2")
    let explained = try session.run("explain displayNameForProperty for address.phone")
    #expect(explained.contains("'Phone'"), "\(explained)")
    #expect(
      try session.run("explain --tree displayNameForProperty for address.phone")
        .contains("Phone"))
    let whyNot = try session.run("why-not 4 for address.phone")
    #expect(whyNot.contains("rule 4"), "\(whyNot)")
    #expect(throws: (any Error).self) { try session.run("explain component for address.nothing") }
  }

  /// On a list, `explain` says when a rule reads the row, whose answer then varies by row;
  /// before, it gave an answer no cell used, without a word.
  @Test func aRuleReadingTheRowIsNamedOnAList() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run(
      "rule object.rating = 'G' AND propertyKey = 'length' => formatter = 'minutesDuration' ; high")
    _ = try session.run("list Film where rating = 'G' limit 2")
    let explained = try session.run("explain formatter for length")
    #expect(explained.contains("note: rule 1 reads each row"), "\(explained)")
    // A rule that matches without a row (nil is not 'G') is named too.
    _ = try session.run(
      "rule object.rating != 'G' AND propertyKey = 'length' => formatter = 'daysDuration' ; high")
    #expect(try session.run("explain formatter for length").contains("reads each row"))
    _ = try session.run("inspect Film 2")
    #expect(!(try session.run("explain formatter for length")).contains("note:"))
  }
}
