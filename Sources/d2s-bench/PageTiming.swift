import Foundation

/// Page 1,000 reached by `next` against page 1, both from the `--timing` lines of one
/// `d2s-repl` process per round: its script is a warm-up `list … limit 20` (not counted, it
/// pays for the model and the first rule look-ups), ``pageOneSamples`` more of the same (page
/// 1), then 999 `next` (pages 2 to 1,000). Each round gives page 1 as the median of those
/// page-1 lines and page 1,000 as the median of the last ``lastPages`` `next` lines (pages 991
/// to 1,000), so that one disturbed command does not decide a round; the ratio is the median
/// of the rounds' page-1,000 figures over the median of their page-1 figures.
enum PageTiming {
  static let pageOneSamples = 10
  static let nexts = 999
  static let lastPages = 10

  /// Runs `command` (which has `--timing` and the paging script) for the suite's rounds and
  /// prints the figures; returns the ratio, or nil when a run failed or printed no timing
  /// lines (said why).
  static func measure(
    _ label: String, _ command: [String], folder: URL, environment: [String: String] = [:]
  ) throws -> Double? {
    let errors = folder.appendingPathComponent("timing-stderr.txt").path
    let expected = 1 + pageOneSamples + nexts
    var pageOne: [Double] = []
    var lastPages: [Double] = []
    var pageThousand: [Double] = []
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
      pageOne.append(median(Array(totals[1...pageOneSamples])))
      lastPages.append(median(Array(totals.suffix(Self.lastPages))))
      pageThousand.append(last)
    }
    let (one, thousand) = (median(pageOne), median(lastPages))
    print(
      "  \(label): page 1 \(format(one, decimals: 2)) ms (median of \(pageOneSamples) warm "
        + "`list … limit 20` lines), pages 991–1,000 \(format(thousand, decimals: 2)) ms "
        + "(median of the last \(Self.lastPages) `next` lines); page 1,000's line alone "
        + "\(format(median(pageThousand), decimals: 2)) ms; medians of \(ListBenchmark.rounds) "
        + "processes")
    return thousand / one
  }
}
