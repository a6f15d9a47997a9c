import Foundation

/// Page 1,000 reached by `next` against page 1, both from the `--timing` lines of one
/// `d2s-repl` process per round. Its script (``script``) is a warm-up `list … limit 20` (not
/// counted: it pays for the model and the first rule look-ups), then ``cycles`` cycles of
/// ``samples`` more of the same (page 1) and 999 `next` (pages 2 to 1,000), so that page-1
/// and page-1,000 commands alternate every second or so and the load of a shared machine
/// weighs on both alike. A timing line has 0.1 ms resolution and a page takes about 1 ms, so
/// one line is too coarse: each round gives page 1 as the mean of the middle half of its page-1
/// lines, and page 1,000 as the same of the last ``samples`` `next` lines of each cycle (pages
/// 996 to 1,000); the middle half leaves out disturbed commands, the mean averages the rounding
/// away. The ratio is the median of the rounds' page-1,000 figures over the median of their
/// page-1 figures.
enum PageTiming {
  static let cycles = 4
  static let samples = 5
  static let nexts = 999
  /// The commands of one cycle.
  static let cycleLength = samples + nexts

  /// The paging script's lines.
  static var script: [String] {
    let list = "list Event order by happenedAt limit 20"
    let cycle = Array(repeating: list, count: samples) + Array(repeating: "next", count: nexts)
    return [list] + Array(Array(repeating: cycle, count: cycles).joined())
  }

  /// The mean of the middle half of `values` (the lowest and highest quarters left out).
  static func middleMean(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.dropFirst(sorted.count / 4).dropLast(sorted.count / 4)
    guard !middle.isEmpty else { return .nan }
    return middle.reduce(0, +) / Double(middle.count)
  }

  /// Runs `command` (which has `--timing` and the paging script) for the suite's rounds and
  /// prints the figures; returns the ratio, or nil when a run failed or printed no timing
  /// lines (said why).
  static func measure(
    _ label: String, _ command: [String], folder: URL, environment: [String: String] = [:]
  ) throws -> Double? {
    let errors = folder.appendingPathComponent("timing-stderr.txt").path
    let expected = 1 + cycles * cycleLength
    var pageOne: [Double] = []
    var pageThousand: [Double] = []
    var lastLines: [Double] = []
    for _ in 0..<ListBenchmark.rounds {
      let run = try ProcessRun.run(command, environment: environment, standardError: errors)
      let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      let totals = TimingLines.totals(in: text)
      guard run.status == 0, totals.count == expected, let last = totals.last else {
        let excerpt = text.split(separator: "\n").prefix(3).joined(separator: " / ")
        print(
          "  \(label): not measured: status \(run.status), \(totals.count) timing lines "
            + "(expected \(expected)); stderr: \(excerpt.isEmpty ? "(empty)" : excerpt)")
        return nil
      }
      let starts = (0..<cycles).map { 1 + $0 * cycleLength }
      pageOne.append(middleMean(starts.flatMap { totals[$0..<($0 + samples)] }))
      pageThousand.append(
        middleMean(starts.flatMap { totals[($0 + cycleLength - samples)..<($0 + cycleLength)] }))
      lastLines.append(last)
    }
    let (one, thousand) = (median(pageOne), median(pageThousand))
    print(
      "  \(label): page 1 \(format(one, decimals: 2)) ms (middle-half mean of "
        + "\(cycles * samples) warm `list … limit 20` lines), pages \(nexts + 2 - samples)–1,000 "
        + "\(format(thousand, decimals: 2)) ms (the same of \(cycles * samples) `next` lines), "
        + "in \(cycles) alternating cycles; the last page-1,000 line alone "
        + "\(format(median(lastLines), decimals: 2)) ms; medians of \(ListBenchmark.rounds) "
        + "processes")
    return thousand / one
  }
}
