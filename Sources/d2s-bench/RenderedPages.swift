import D2STesting
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Pages no cache can answer, as the demo rules give them (without facets, whose counts
/// `finding` measures): the list page rendered anew, a logged-in user's list page and edit
/// form, the anonymous inspect page, the list over PostgreSQL (given
/// `D2S_BENCH_POSTGRES_URL`); then 1,000 keep-alive connections against 64. Part of `web`;
/// `d2s-bench pages` runs it alone.
enum RenderedPages {
  /// The demo's rules (`data/demo.d2s`) and a file turning the list's facets off.
  static func rules(in folder: URL) throws -> [String] {
    let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("data/demo.d2s").path
    let noFacets = folder.appendingPathComponent("no-facets.d2s")
    try "task = 'list' => facetPropertyKeys = () ; high\n".write(
      to: noFacets, atomically: true, encoding: .utf8)
    return [demo, noFacets.path]
  }

  static func run() throws {
    let serve = try Tools.built("d2s-serve")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-pages-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sakila = folder.appendingPathComponent("sakila.db").path
    try FileManager.default.copyItem(atPath: try FetchBenchmark.sakilaFile(), toPath: sakila)
    print(
      "pages: d2s-serve \(serve), the demo rules without facets, \(WebBenchmark.seconds) s per "
        + "measurement, \(WebBenchmark.rounds) alternated rounds, medians")
    var table: [(String, Double, String)] = []
    try measure(serve, sakila: sakila, folder: folder, into: &table)
    WebBenchmark.printTable(table)
  }

  /// Measures the cases, adding their ratios to `table`.
  static func measure(
    _ serve: String, sakila: String, folder: URL, into table: inout [(String, Double, String)]
  ) throws {
    let rules = try rules(in: folder).flatMap { ["--rules", $0] }
    let server = try Served.d2sServe(
      serve, [sakila, "--page-cache", "0"] + rules, folder: folder)
    defer { server.stop() }
    let cookie = try logIn(server.base, user: "Mike", password: "12345")
    let list = "/Film?limit=50"
    let page = try LoopbackHTTP.request("GET", server.base + list)
    let own = try LoopbackHTTP.request("GET", server.base + list, headers: [("Cookie", cookie)])
    let edit = try LoopbackHTTP.request(
      "GET", server.base + "/Film/1/-/edit", headers: [("Cookie", cookie)])
    guard page.status == 200, own.status == 200, edit.status == 200,
      own.text.contains("Log out"), edit.text.contains("<form")
    else {
      throw BenchError(
        "the demo's pages did not answer as expected (\(page.status), \(own.status), "
          + "\(edit.status))")
    }
    let nginx = try Served.nginx(serving: page.body, folder: folder)
    defer { nginx.stop() }
    var postgres: Served?
    if let url = ProcessInfo.processInfo.environment["D2S_BENCH_POSTGRES_URL"] {
      postgres = try Served.d2sServe(serve, [url, "--page-cache", "0"] + rules, folder: folder)
    }
    defer { postgres?.stop() }
    if let postgres {
      let theirs = try LoopbackHTTP.request("GET", postgres.base + list)
      print(
        "  pages: list \(page.body.count) bytes on SQLite, \(theirs.body.count) on PostgreSQL "
          + "(status \(theirs.status)); \(own.body.count) logged in; edit form "
          + "\(edit.body.count)")
    } else {
      print("  PostgreSQL: set D2S_BENCH_POSTGRES_URL to compare the list over it")
    }
    let session = [("Cookie", cookie)]
    var cases: [WebBenchmark.Target] = [
      .init("nginx file", nginx.base + "/film.html", nginx),
      .init("list, anew", server.base + list, server),
      .init("list, logged in", server.base + list, server, headers: session),
      .init("inspect, anew", server.base + "/Film/1", server),
      .init("edit, logged in", server.base + "/Film/1/-/edit", server, headers: session),
    ]
    if let postgres { cases.append(.init("list, PostgreSQL", postgres.base + list, postgres)) }
    let results = try WebBenchmark.alternate(cases, connections: 64)
    for (name, result) in results { print("  64 conn, \(pad(name, 18)) \(result)") }
    func rps(_ name: String) -> Double { results.first { $0.0 == name }?.1.rps ?? .nan }
    table.append(
      (
        "list anew / nginx serving its bytes", rps("list, anew") / rps("nginx file"),
        "≥ 0.1 (0.3)"
      ))
    table.append(
      (
        "logged-in list / nginx", rps("list, logged in") / rps("nginx file"),
        "≥ 0.1 (0.3)"
      ))
    table.append(
      (
        "edit form (logged in) / inspect, time",
        rps("inspect, anew")
          / rps("edit, logged in"), "≤ 1.3"
      ))
    if postgres != nil {
      table.append(
        (
          "PostgreSQL list / SQLite list, time",
          rps("list, anew")
            / rps("list, PostgreSQL"), "≤ 1.5"
        ))
    }
    server.stop()
    postgres?.stop()
    nginx.stop()
    try connections(serve, sakila: sakila, rules: rules, folder: folder, into: &table)
  }

  /// Rounds of each paced run, alternated: 64 connections, then 1,000.
  static let pacedRounds = 3

  /// The list page (from the page cache: what a server's connections cost, not its pages) at
  /// 64 and at 1,000 keep-alive connections: as fast as each can go, then both paced to the
  /// same rate, where their p99 compare (each in 3 alternated rounds, as the suite's other
  /// measures: the medians of each compare; one round's p99 at 1,000 connections moves with
  /// any pause of the shared cores); errors, and peak memory after each.
  ///
  /// The rate compared is half of what 64 connections reached. Paced, `wrk` runs a script per
  /// request and takes more of the machine's cores: at four fifths (measured too, and printed)
  /// the paced runs often fall short of the rate, so that their p99 measures a queue growing
  /// for the length of the run, not what a connection costs. Each paced run's rate reached is
  /// printed beside the rate asked: a paced connection waits after each answer, so 64 of them
  /// reach a little less than they ask (an answer's time adds to their shorter waits).
  static func connections(
    _ serve: String, sakila: String, rules: [String], folder: URL,
    into table: inout [(String, Double, String)]
  ) throws {
    let server = try Served.d2sServe(serve, [sakila] + rules, folder: folder)
    defer { server.stop() }
    let url = server.base + "/Film?limit=50"
    let few = try Load.measure(url, connections: 64)
    server.waitUntilIdle()
    let atFew = server.peakKilobytes
    let many = try Load.measure(url, connections: 1_000)
    server.waitUntilIdle()
    let atMany = server.peakKilobytes
    print("  64 conn,    cached list \(few)")
    print("  1,000 conn, cached list \(many)")
    var ratios: [Double: Double] = [:]
    var reached = Double.infinity
    var errors = many.errors
    for share in [0.5, 0.8] {
      let rate = few.rps * share
      var pacedFew: [Load] = []
      var pacedMany: [Load] = []
      for _ in 0..<pacedRounds {
        let paced64 = try Load.measure(url, connections: 64, pacedTo: rate, folder: folder)
        server.waitUntilIdle()
        let paced1000 = try Load.measure(url, connections: 1_000, pacedTo: rate, folder: folder)
        server.waitUntilIdle()
        print("  64 conn,    paced to \(format(rate, decimals: 0)) req/s \(paced64)")
        print("  1,000 conn, paced to \(format(rate, decimals: 0)) req/s \(paced1000)")
        pacedFew.append(paced64)
        pacedMany.append(paced1000)
      }
      ratios[share] = median(pacedMany.map(\.p99)) / median(pacedFew.map(\.p99))
      if share == 0.5 {
        reached = min(median(pacedFew.map(\.rps)), median(pacedMany.map(\.rps))) / rate
      }
      errors += pacedMany.reduce(0) { $0 + $1.errors }
    }
    print(
      "  d2s-serve peak resident memory: \(format(atFew / 1024)) MB after 64 connections, "
        + "\(format(atMany / 1024)) MB after 1,000 (about "
        + "\(format(max(0, atMany - atFew) / 936, decimals: 0)) KB per connection more)")
    table.append(("1,000 connections: errors", Double(errors), "0"))
    table.append(
      ("1,000 conn p99 / 64 conn p99, at ½ of most", ratios[0.5] ?? .nan, "≤ 5"))
    table.append(("paced rate reached / asked, at ½ of most", reached, ""))
    table.append(("1,000 conn p99 / 64 conn p99, at ⅘ of most", ratios[0.8] ?? .nan, ""))
    table.append(("1,000 conn req/s / 64 conn req/s", many.rps / few.rps, "≈ 1"))
    table.append(("peak memory, 1,000 conn / 64 conn", atMany / atFew, ""))
  }

  /// Logs in as `user` the way a browser does; the `Cookie` header value the session needs.
  static func logIn(_ base: String, user: String, password: String) throws -> String {
    let form = try LoopbackHTTP.request("GET", base + "/-/login")
    var cookies = Self.cookies(form)
    let token = form.text.components(separatedBy: "name=\"_csrf\" value=\"").dropFirst().first?
      .prefix { $0 != "\"" }
    guard let token else { throw BenchError("the login page has no CSRF token") }
    func encoded(_ text: some StringProtocol) -> String {
      String(text).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
    let body = "_csrf=\(encoded(token))&user=\(encoded(user))&password=\(encoded(password))"
    let answer = try LoopbackHTTP.request(
      "POST", base + "/-/login", body: Data(body.utf8),
      contentType: "application/x-www-form-urlencoded", headers: [("Cookie", header(cookies))])
    cookies.merge(Self.cookies(answer)) { $1 }
    guard answer.status == 303 else { throw BenchError("logging in answered \(answer.status)") }
    return header(cookies)
  }

  private static func cookies(_ answer: HTTPAnswer) -> [String: String] {
    var cookies: [String: String] = [:]
    for value in answer.headers("Set-Cookie") {
      let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
      if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
    }
    return cookies
  }

  private static func header(_ cookies: [String: String]) -> String {
    cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
  }
}
