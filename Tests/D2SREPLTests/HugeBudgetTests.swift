import D2STesting
import Foundation
import Testing

/// A time budget too long to count in nanoseconds (a rule's `countTimeBudget` of 10¹³ ms, as
/// someone who wants no limit may write) waits without limit; it never traps the process.
@Suite struct HugeBudgetTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func aCountBudgetBeyondNanosecondsCountsOnAndKeepsTheProcess() throws {
    let run = try BinaryTests().run([
      try SakilaSQLite.copy(), "-c", "exactCountRowLimit = 1000", "-c",
      "countTimeBudget = 10000000000000", "-c", "list Rental where customerId > 5 limit 3",
    ])
    #expect(run.status == 0, "\(run.stderr.suffix(400))")
    #expect(run.stdout.contains("1–3 of"), "\(run.stdout.suffix(400))")
  }
}
