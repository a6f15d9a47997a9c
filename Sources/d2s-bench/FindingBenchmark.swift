import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `d2s-bench finding`: what people do first with a big table, from a fresh `d2s-serve` over
/// a generated 1,000,000-row one: download it as CSV (the server's memory, `sqlite3 -csv`'s
/// rows), and list it with facets (the list still first).
enum FindingBenchmark {
  static func run() throws {
    let serve = try Tools.built("d2s-serve")
    for tool in ["curl", "sqlite3"] where Tools.find(tool) == nil {
      throw BenchError("\(tool) is not installed")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-finding-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("finding: d2s-serve \(serve), curl over loopback")
    let path = try EventTable.make(in: folder, rows: 1_000_000)
    let peak = try CSVDownload.run(serve: serve, path: path, folder: folder)
    let facets = try FacetTiming.run(serve: serve, path: path, folder: folder)
    print("")
    print("  CSV download, d2s-serve peak memory, MB     \(format(peak, decimals: 1)) goal < 64")
    print(
      "  list with facets / without, the list's time \(format(facets, decimals: 2)) goal ≤ 1.15")
  }
}
