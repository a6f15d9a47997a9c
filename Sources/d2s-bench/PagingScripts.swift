import Foundation

/// The script files the paging cases run.
struct PagingScripts {
  /// The first page, filtered and sorted.
  let first: String
  /// One warm-up `list`, ``PageTiming/pageOneSamples`` times page 1, then 999 `next`.
  let paging: String

  init(in folder: URL) throws {
    first = folder.appendingPathComponent("first-page.d2s").path
    try (PagingBenchmark.firstPage + "\n").write(toFile: first, atomically: true, encoding: .utf8)
    paging = folder.appendingPathComponent("paging.d2s").path
    let list = "list Event order by happenedAt limit 20"
    let lines =
      Array(repeating: list, count: 1 + PageTiming.pageOneSamples)
      + Array(repeating: "next", count: PageTiming.nexts)
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: paging, atomically: true, encoding: .utf8)
  }
}
