import Components
import D2SModel
import Testing

/// Inputs that coverage-guided fuzzing (`make fuzz`) found to trap, kept as regression tests.
@Suite struct FuzzFindingTests {
  let formatters = FormatterRegistry()

  /// `minutesDuration` multiplied hours by 60 and summed parts with trapping arithmetic.
  @Test(arguments: ["999999999999999999h", "9223372036854775807m 1m", "153722867280912931h 1h"])
  func minutesDurationRefusesNumbersTooLarge(text: String) throws {
    let formatter = try #require(formatters.formatter(named: "minutesDuration"))
    #expect(throws: FormatterError.self) { try formatter.parse(text, for: nil) }
  }

  @Test func minutesDurationStillParsesLargeValidSums() throws {
    let formatter = try #require(formatters.formatter(named: "minutesDuration"))
    #expect(try formatter.parse("2h 5m", for: nil) == .int(125))
    #expect(try formatter.parse("9223372036854775807m", for: nil) == .int(Int.max))
  }
}
