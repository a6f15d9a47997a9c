import Foundation

/// Peak memory of one command over a big and a small table, chosen by environment: one run
/// over the big table (it is long), the median of three over the small one. The big run is
/// capped at ``limitMegabytes`` of address space (`D2S_BENCH_MEMORY_LIMIT_MB`, default 8192)
/// so that a list that holds every row cannot take the machine down.
enum PeakMemory {
  static let limitMegabytes =
    Int(ProcessInfo.processInfo.environment["D2S_BENCH_MEMORY_LIMIT_MB"] ?? "") ?? 8192

  /// Prints both peaks and times; returns big over small (nil when the big run failed, then
  /// said so with the cap).
  static func compare(
    _ command: [String], big: [String: String], small: [String: String]
  ) throws -> Double? {
    let capped = ["sh", "-c", "ulimit -v \(limitMegabytes * 1024) && exec \"$0\" \"$@\""] + command
    let large = try ProcessRun.run(capped, environment: big)
    var smalls: [ProcessRun] = []
    for _ in 0..<3 { smalls.append(try ProcessRun.run(command, environment: small)) }
    let smallPeak = median(smalls.map { Double($0.peakKilobytes) }) / 1024
    let smallTime = median(smalls.map(\.milliseconds))
    let largePeak = Double(large.peakKilobytes) / 1024
    print(
      "  d2s-repl URL -c \"list Event\" in script mode, stdout to /dev/null: "
        + "10,000,000 rows \(format(large.milliseconds / 1000)) s, \(format(largePeak)) MB peak "
        + "(one run, status \(large.status)); 10,000 rows \(format(smallTime)) ms, "
        + "\(format(smallPeak)) MB peak (median of 3)")
    guard large.status == 0, smalls.allSatisfy({ $0.status == 0 }) else {
      print(
        "  peak memory: not measured: a run failed (the 10,000,000-row run is capped at "
          + "\(limitMegabytes) MB of address space)")
      return nil
    }
    return largePeak / smallPeak
  }
}
