import Foundation

/// The script files the paging cases run.
struct PagingScripts {
  /// The first page, filtered and sorted.
  let first: String
  /// ``PageTiming/script``: cycles of `list … limit 20` (page 1) and 999 `next`.
  let paging: String

  init(in folder: URL) throws {
    first = folder.appendingPathComponent("first-page.d2s").path
    try (PagingBenchmark.firstPage + "\n").write(toFile: first, atomically: true, encoding: .utf8)
    paging = folder.appendingPathComponent("paging.d2s").path
    try (PageTiming.script.joined(separator: "\n") + "\n").write(
      toFile: paging, atomically: true, encoding: .utf8)
  }
}
