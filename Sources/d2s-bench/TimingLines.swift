/// The `--timing` lines of a `d2s-repl` run, one per command on stderr, each starting with the
/// command's total wall time: `15.3 ms · 3 statements 12.1 ms · 412 rule look-ups, 97% cached
/// · render 3.2 ms · 20 rows`. Other stderr lines are skipped.
enum TimingLines {
  /// The total milliseconds of each timing line in `text`, in command order.
  static func totals(in text: String) -> [Double] {
    text.split(separator: "\n").compactMap(total)
  }

  /// The total milliseconds a timing line starts with (`15.3 ms`, `1.2 s` or `850 µs`), or nil
  /// when the line is not a timing line.
  static func total(_ line: Substring) -> Double? {
    let words = line.split(separator: " ", maxSplits: 2)
    guard words.count >= 2, let value = Double(words[0]) else { return nil }
    switch words[1] {
    case "ms", "ms,": return value
    case "s", "s,": return value * 1000
    case "µs", "µs,", "us", "us,": return value / 1000
    default: return nil
    }
  }
}
