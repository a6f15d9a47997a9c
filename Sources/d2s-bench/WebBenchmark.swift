import D2STesting
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The `web` suite: the release `d2s-serve` under load from `wrk` over loopback, against
/// Datasette serving the same SQLite file (in a virtual environment of its own) and nginx
/// serving D2S's own page as a file, measured alternately in the same run; then the same list
/// over 1,000,000 rows and over 100, and `d2s-serve`'s peak memory after 30 s and 60 s of load.
enum WebBenchmark {
  /// Seconds of load per measurement (`D2S_BENCH_WEB_SECONDS`, default 5).
  static let seconds = Int(ProcessInfo.processInfo.environment["D2S_BENCH_WEB_SECONDS"] ?? "") ?? 5
  /// Alternated rounds per case (`D2S_BENCH_ROUNDS`, default 3).
  static let rounds = Int(ProcessInfo.processInfo.environment["D2S_BENCH_ROUNDS"] ?? "") ?? 3
  static let connections = [1, 16, 64]

  static func run() throws {
    let serve = try Tools.built("d2s-serve")
    for tool in ["wrk", "nginx"] where Tools.find(tool) == nil {
      throw BenchError("\(tool) is not installed (make deps installs wrk and nginx-light)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-web-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sakila = folder.appendingPathComponent("sakila.db").path
    try FileManager.default.copyItem(atPath: try FetchBenchmark.sakilaFile(), toPath: sakila)

    print(
      "web: d2s-serve \(serve), wrk over loopback, \(seconds) s per measurement, "
        + "\(rounds) alternated rounds, medians")
    let d2s = try Served.d2sServe(serve, [sakila], folder: folder)
    defer { d2s.stop() }
    // The same server rendering every page anew: what a page costs when no visitor asked
    // for it since the database last changed.
    let uncached = try Served.d2sServe(serve, [sakila, "--page-cache", "0"], folder: folder)
    defer { uncached.stop() }
    let datasette = try Served.datasette(sakila, folder: folder)
    defer { datasette.stop() }
    let page = try LoopbackHTTP.request("GET", d2s.base + "/Film?limit=50")
    guard page.status == 200 else { throw BenchError("d2s-serve answered \(page.status)") }
    let nginx = try Served.nginx(serving: page.body, folder: folder)
    defer { nginx.stop() }
    let theirs = try LoopbackHTTP.request("GET", datasette.base + "/sakila/film?_size=50")
    print(
      "  pages: d2s-serve /Film?limit=50 \(page.body.count) bytes; Datasette "
        + "/sakila/film?_size=50 \(theirs.body.count) bytes (status \(theirs.status))")

    var table: [(String, Double, String)] = []
    for count in connections {
      let list = try alternate(
        [
          ("d2s list", d2s.base + "/Film?limit=50", d2s),
          ("Datasette table", datasette.base + "/sakila/film?_size=50", datasette),
          ("d2s row", d2s.base + "/Film/1", d2s),
          ("Datasette row", datasette.base + "/sakila/film/1", datasette),
        ]
          + (count == 64
            ? [
              ("nginx file", nginx.base + "/film.html", nginx),
              ("d2s list, no page cache", uncached.base + "/Film?limit=50", uncached),
            ] : []),
        connections: count)
      for (name, result) in list { print("  \(count) conn, \(pad(name, 16)) \(result)") }
      guard count == 64 else { continue }
      let d2sList = list[0].1
      let dsList = list[1].1
      let d2sRow = list[2].1
      let dsRow = list[3].1
      table.append(
        ("list page rps / Datasette's, 64 conn", d2sList.rps / dsList.rps, "≥ 20 (moonshot 50)"))
      table.append(("list page p99 / Datasette's", d2sList.p99 / dsList.p99, "< 1"))
      table.append(("row page rps / Datasette's, 64 conn", d2sRow.rps / dsRow.rps, "≥ 10"))
      table.append(("row page p99 / Datasette's", d2sRow.p99 / dsRow.p99, "< 1"))
      table.append(
        ("list page rps / nginx serving its bytes", d2sList.rps / list[4].1.rps, "≥ 0.1 (0.3)"))
      table.append(("same, --page-cache 0, / nginx", list[5].1.rps / list[4].1.rps, ""))
      table.append(("same, --page-cache 0, / Datasette's", list[5].1.rps / dsList.rps, ""))
    }
    d2s.stop()
    uncached.stop()
    datasette.stop()
    nginx.stop()

    let big = try EventTable.make(in: folder, rows: 1_000_000)
    let small = try EventTable.make(in: folder, rows: 100)
    // Without the page cache, so that each request pages and counts the table.
    let bigServer = try Served.d2sServe(serve, [big, "--page-cache", "0"], folder: folder)
    defer { bigServer.stop() }
    let smallServer = try Served.d2sServe(serve, [small, "--page-cache", "0"], folder: folder)
    defer { smallServer.stop() }
    let events = try alternate(
      [
        ("1,000,000 rows", bigServer.base + "/Event?limit=50", bigServer),
        ("100 rows", smallServer.base + "/Event?limit=50", smallServer),
      ], connections: 16)
    for (name, result) in events {
      print("  16 conn, Event list, no page cache, \(pad(name, 16)) \(result)")
    }
    table.append(
      ("100-row list rps / 1,000,000-row list rps", events[1].1.rps / events[0].1.rps, "≤ 1.2"))
    smallServer.stop()

    let (at30, at60) = try peakMemory(bigServer, url: bigServer.base + "/Event?limit=50")
    print(
      "  d2s-serve peak resident memory under 64 connections: \(format(at30 / 1024)) MB after "
        + "30 s, \(format(at60 / 1024)) MB after 60 s")
    table.append(("peak memory after 60 s / after 30 s", at60 / at30, "≤ 1.1"))
    bigServer.stop()

    print("  pages no cache answers, the demo rules without facets:")
    try RenderedPages.measure(serve, sakila: sakila, folder: folder, into: &table)
    printTable(table)
  }

  /// The ratios, each with its goal.
  static func printTable(_ table: [(String, Double, String)]) {
    print("")
    for (name, ratio, goal) in table {
      let shown = pad(format(ratio, decimals: 2), 8)
      print("  \(pad(name, 44)) \(goal.isEmpty ? shown : shown + " goal " + goal)")
    }
  }

  /// A page measured: its name, URL, server and the headers sent (a session's cookie).
  struct Target {
    let name: String
    let url: String
    let server: Served
    var headers: [(String, String)] = []

    init(_ name: String, _ url: String, _ server: Served, headers: [(String, String)] = []) {
      self.name = name
      self.url = url
      self.server = server
      self.headers = headers
    }
  }

  /// ``alternate(_:connections:)-(Target)`` for targets without headers.
  static func alternate(_ targets: [(String, String, Served)], connections: Int) throws -> [(
    String, Load
  )] {
    try alternate(targets.map { Target($0.0, $0.1, $0.2) }, connections: connections)
  }

  /// Runs each target for ``seconds`` under `connections`, one after another, for
  /// ``rounds`` rounds; the median of each measure per target.
  static func alternate(_ targets: [Target], connections: Int) throws -> [(String, Load)] {
    var results: [String: [Load]] = [:]
    for _ in 0..<rounds {
      for target in targets {
        results[target.name, default: []].append(
          try Load.measure(target.url, connections: connections, headers: target.headers))
        // A server still busy with requests wrk gave up on would slow the next one measured.
        target.server.waitUntilIdle()
      }
    }
    return targets.map { ($0.name, Load.middle(results[$0.name] ?? [])) }
  }

  /// The server's peak resident memory (VmHWM, KB) after 30 s and after 60 s of load.
  static func peakMemory(_ server: Served, url: String) throws -> (Double, Double) {
    let load = Process()
    load.executableURL = URL(fileURLWithPath: Tools.find("wrk") ?? "wrk")
    load.arguments = ["-t2", "-c64", "-d62s", url]
    load.standardOutput = FileHandle.nullDevice
    try load.run()
    defer { if load.isRunning { load.terminate() } }
    Thread.sleep(forTimeInterval: 30)
    let first = server.peakKilobytes
    Thread.sleep(forTimeInterval: 30)
    let second = server.peakKilobytes
    load.waitUntilExit()
    return (first, second)
  }
}

/// Requests per second and latency percentiles of one `wrk` run.
struct Load: CustomStringConvertible {
  var rps: Double
  var p50: Double
  var p99: Double
  var errors: Int

  var description: String {
    "\(pad(format(rps, decimals: 0) + " req/s", 14)) p50 \(pad(milliseconds(p50), 9)) "
      + "p99 \(milliseconds(p99))" + (errors > 0 ? "  (\(errors) errors)" : "")
  }

  private func milliseconds(_ seconds: Double) -> String {
    seconds < 0.01 ? format(seconds * 1000, decimals: 2) + " ms" : format(seconds * 1000) + " ms"
  }

  static func measure(
    _ url: String, connections: Int, headers: [(String, String)] = [],
    pacedTo rate: Double? = nil, folder: URL? = nil
  ) throws -> Load {
    let threads = min(2, connections)
    var script: [String] = []
    if let rate, let folder {
      // Each connection waits between its requests, so that together they ask `rate` a second;
      // a random wait (of that mean) keeps them from asking all at once.
      let file = folder.appendingPathComponent("paced-\(connections).lua")
      let milliseconds = max(1, Int((Double(connections) / rate * 1000).rounded()))
      try "function delay() return math.random(0, \(2 * milliseconds)) end\n".write(
        to: file, atomically: true, encoding: .utf8)
      script = ["-s", file.path]
    }
    let output = try Tools.output(
      [
        "wrk", "-t\(threads)", "-c\(connections)", "-d\(WebBenchmark.seconds)s",
        "--timeout", "30s", "--latency",
      ] + script + headers.flatMap { ["-H", "\($0.0): \($0.1)"] } + [url])
    return try parse(output)
  }

  /// Reads `Requests/sec:`, the latency distribution's 50% and 99%, and non-2xx answers.
  static func parse(_ output: String) throws -> Load {
    var load = Load(rps: .nan, p50: .nan, p99: .nan, errors: 0)
    for line in output.split(separator: "\n") {
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard let first = words.first else { continue }
      switch first {
      case "Requests/sec:": load.rps = words.count > 1 ? Double(words[1]) ?? .nan : .nan
      case "50%": load.p50 = seconds(words.dropFirst().first)
      case "99%": load.p99 = seconds(words.dropFirst().first)
      case "Non-2xx": load.errors += Int(words.last ?? "") ?? 0
      case "Socket": load.errors += words.compactMap { Int($0.filter(\.isNumber)) }.reduce(0, +)
      default: break
      }
    }
    guard load.rps.isFinite else { throw BenchError("wrk said:\n\(output)") }
    return load
  }

  /// `1.23ms`, `456.00us`, `1.20s` in seconds.
  static func seconds(_ word: Substring?) -> Double {
    guard let word else { return .nan }
    for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)]
    where word.hasSuffix(unit) {
      return (Double(word.dropLast(unit.count)) ?? .nan) * scale
    }
    return .nan
  }

  /// The median of each measure; errors added up.
  static func middle(_ loads: [Load]) -> Load {
    Load(
      rps: median(loads.map(\.rps)), p50: median(loads.map(\.p50)),
      p99: median(loads.map(\.p99)), errors: loads.map(\.errors).reduce(0, +))
  }
}
