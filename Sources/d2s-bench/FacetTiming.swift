import Foundation

/// A list page with facets against the same page without, on a 1,000,000-row table: the
/// facets are counted after the list, which is sent first, so the time to the page's first
/// byte (its list) should stay within 1.15 of the whole page without facets.
enum FacetTiming {
  /// Alternated requests per page.
  static let requests = 15

  /// Measures `/Event?limit=50` with and without `facet=kind` from a fresh `d2s-serve` over
  /// `path`; returns list time with facets over list time without.
  static func run(serve: String, path: String, folder: URL) throws -> Double {
    let server = try Served.d2sServe(serve, [path, "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    let plain = server.base + "/Event?limit=50"
    let faceted = plain + "&facet=kind"
    // Warm up both (the second connection opens on the first facet count).
    _ = try times(plain)
    _ = try times(faceted)
    var without: [Double] = []
    var first: [Double] = []
    var whole: [Double] = []
    for _ in 0..<requests {
      without.append(try times(plain).total)
      let timed = try times(faceted)
      first.append(timed.firstByte)
      whole.append(timed.total)
    }
    let page = try body(faceted)
    let counted = !page.contains("too slow to count") && page.contains("class=\"facet\"")
    let ratio = median(first) / median(without)
    print(
      "  /Event?limit=50, 1,000,000 rows, median of \(requests): without facets "
        + "\(format(median(without) * 1000)) ms; with facet=kind first byte (the list) "
        + "\(format(median(first) * 1000)) ms, whole page \(format(median(whole) * 1000)) ms "
        + "(the facet \(counted ? "counted" : "too slow to count") within facetTimeBudget)")
    return ratio
  }

  /// curl's time to the first byte of the body and to the end, in seconds.
  static func times(_ url: String) throws -> (firstByte: Double, total: Double) {
    let output = try curl([
      "-s", "-o", "/dev/null", "-w", "%{time_starttransfer} %{time_total}", url,
    ])
    let parts = output.split(separator: " ").compactMap { Double($0) }
    guard parts.count == 2 else { throw BenchError("curl gave no times for \(url)") }
    return (parts[0], parts[1])
  }

  /// The body at `url`.
  static func body(_ url: String) throws -> String { try curl(["-s", url]) }

  /// What curl with `arguments` writes to standard output.
  static func curl(_ arguments: [String]) throws -> String {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: Tools.find("curl") ?? "/usr/bin/curl")
    curl.arguments = arguments
    let pipe = Pipe()
    curl.standardOutput = pipe
    try curl.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    curl.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
