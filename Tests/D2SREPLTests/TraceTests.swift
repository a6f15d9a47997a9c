import D2SModel
import D2STesting
import Foundation
import RuleCore
import Testing

@testable import D2SREPL

/// `timing` and `trace` in a session: the formats, look-ups that match the engine's own
/// cache statistics, and rows that are the rows shown, on SQLite and PostgreSQL. Statement
/// counts are exact only in a process of their own (the recording is process-wide and tests
/// run in parallel): `TraceBinaryTests` checks them through the binary.
@Suite struct TraceTests {
  /// What a runner wrote: standard output and standard error, line by line.
  final class Written: @unchecked Sendable {
    var output: [String] = []
    var errors: [String] = []
  }

  func runner(_ server: TestServer, json: Bool = false) throws -> (REPLRunner, Written) {
    let session = try REPLSession(width: 100)
    _ = try session.run(
      "open \(server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy())")
    if json { _ = try session.run("platform = 'json'") }
    let written = Written()
    let runner = REPLRunner(session: session) { text, isError in
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if isError { written.errors += lines } else { written.output += lines }
    }
    return (runner, written)
  }

  /// Runs `line` and returns the lines it wrote to stderr.
  func errors(of line: String, in runner: REPLRunner, _ written: Written) -> [String] {
    written.errors = []
    written.output = []
    runner.runLine(line)
    return written.errors
  }

  @Test func commandsParse() throws {
    #expect(try CommandParser.parse("timing on") == .timing(true))
    #expect(try CommandParser.parse("TIMING Off") == .timing(false))
    #expect(try CommandParser.parse("trace on") == .trace(true))
    #expect(try CommandParser.parse("trace off") == .trace(false))
    for line in ["timing", "timing maybe", "trace on please"] {
      #expect(throws: REPLError.self) { try CommandParser.parse(line) }
    }
    #expect(try REPLHelp.text(for: "timing").contains("· 20 rows"))
  }

  // MARK: - Formats

  static let report = CommandReport(
    total: .milliseconds(15.3),
    statements: [
      SQLTrace.Statement(sql: "SELECT a\nFROM t WHERE k = ?", bound: 1, duration: .milliseconds(9)),
      SQLTrace.Statement(sql: "SELECT b", bound: 0, duration: .milliseconds(3)),
      SQLTrace.Statement(
        sql: "SELECT count(*)", bound: 2, duration: .microseconds(100), onRecordingThread: false),
    ],
    lookups: [
      .init(key: "component", source: "rule 1: *true* => component = 'X'", count: 300, cached: 296),
      .init(key: "component", source: "default", count: 100, cached: 100),
      .init(
        key: "page", source: "builtin rule 3: task = 'list' => page = 'QueryList'", count: 12,
        cached: 4),
    ],
    rows: 20)

  @Test func timingLineFormat() {
    #expect(
      Self.report.timingLine
        == "15.3 ms · 3 statements 12.1 ms · 412 rule look-ups, 97% cached · render 3.3 ms · 20 rows"
    )
    let small = CommandReport(
      total: .microseconds(400),
      statements: [SQLTrace.Statement(sql: "SELECT 1", bound: 0, duration: .microseconds(100))],
      lookups: [.init(key: "task", source: "default", count: 1, cached: 0)], rows: 1)
    #expect(
      small.timingLine
        == "0.4 ms · 1 statement 0.1 ms · 1 rule look-up, 0% cached · render 0.3 ms · 1 row")
    let none = CommandReport(total: .microseconds(50), statements: [], lookups: [], rows: 0)
    #expect(none.timingLine == "0.1 ms · 0 statements 0.0 ms · 0 rule look-ups · render 0.1 ms")
  }

  @Test func traceLinesFormat() {
    #expect(
      Self.report.traceLines == [
        "sql 9.000 ms, 1 bound: SELECT a FROM t WHERE k = ?",
        "sql 3.000 ms, 0 bound: SELECT b",
        "sql 0.100 ms, 2 bound, concurrent: SELECT count(*)",
        "rule look-ups: 412, 400 cached",
        "  component: 400, 396 cached",
        "    300, 296 cached: rule 1: *true* => component = 'X'",
        "    100, 100 cached: default",
        "  page: 12, 4 cached",
        "    12, 4 cached: builtin rule 3: task = 'list' => page = 'QueryList'",
      ])
  }

  @Test func jsonFormats() {
    #expect(
      Self.report.timingJSON
        == #"{"timing":{"ms":15.300,"statements":3,"sqlMs":12.100,"lookups":412,"cachedLookups":400,"renderMs":3.300,"rows":20}}"#
    )
    #expect(
      Self.report.traceJSON == [
        #"{"sql":"SELECT a\nFROM t WHERE k = ?","ms":9.000,"bound":1}"#,
        #"{"sql":"SELECT b","ms":3.000,"bound":0}"#,
        #"{"sql":"SELECT count(*)","ms":0.100,"bound":2,"concurrent":true}"#,
        #"{"lookups":[{"key":"component","count":400,"cached":396,"rules":[{"rule":"rule 1: *true* => component = 'X'","count":300,"cached":296},{"rule":"default","count":100,"cached":100}]},{"key":"page","count":12,"cached":4,"rules":[{"rule":"builtin rule 3: task = 'list' => page = 'QueryList'","count":12,"cached":4}]}]}"#,
      ])
    let none = CommandReport(total: .microseconds(50), statements: [], lookups: [], rows: 0)
    #expect(
      none.timingJSON
        == #"{"timing":{"ms":0.050,"statements":0,"sqlMs":0.000,"lookups":0,"cachedLookups":0,"renderMs":0.050}}"#
    )
  }

  // MARK: - In a session

  @Test(arguments: TestServer.available)
  func onAndOff(server: TestServer) throws {
    let (runner, written) = try runner(server)
    #expect(errors(of: "show task", in: runner, written).isEmpty)
    #expect(errors(of: "timing on", in: runner, written).isEmpty, "no line for `timing on`")
    #expect(written.output.isEmpty)
    let timed = errors(of: "show task", in: runner, written)
    #expect(timed.count == 1)
    #expect(timed.first?.contains(" ms · ") == true)
    #expect(errors(of: "", in: runner, written).isEmpty, "a blank line is no command")
    #expect(errors(of: "timing off", in: runner, written).isEmpty, "no line for `timing off`")
    #expect(errors(of: "show task", in: runner, written).isEmpty)
    let failed = errors(of: "trace maybe", in: runner, written)
    #expect(failed == ["error: usage: trace on|off"])
  }

  /// Every look-up a rule answers is a win in the engine's coverage counts (kept apart), so
  /// the trace's counts per rule must be those wins; the cache answers at most the look-ups
  /// its statistics count as hits.
  @Test(arguments: TestServer.available)
  func lookupsMatchTheEngine(server: TestServer) throws {
    let (runner, written) = try runner(server)
    runner.runLine("trace on")
    runner.runLine("timing on")
    let engine = runner.session.context.engine
    for line in ["inspect Actor 1", "list Film where rating = 'G' order by title limit 5"] {
      let wins = engine.allRules.map { engine.coverage.counts(of: $0).won }
      let hits = engine.cacheStatistics.hits
      let lines = errors(of: line, in: runner, written)
      let won = zip(engine.allRules, wins).map { ($0, engine.coverage.counts(of: $0).won - $1) }
      let total = try #require(lines.first { $0.hasPrefix("rule look-ups: ") })
      let numbers = total.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
      let (lookups, cached) = (numbers[0], numbers[1])
      #expect(cached <= engine.cacheStatistics.hits - hits)
      #expect(lines.last?.contains(" · \(lookups) rule look-ups, ") == true, "\(lines)")
      // Per key, the counts add up to the total, and each key's rules to the key's count.
      let keys = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("    ") }
      let perKey = keys.compactMap { Int($0.split(separator: ": ")[1].split(separator: ",")[0]) }
      #expect(perKey.reduce(0, +) == lookups)
      let perRule = lines.filter { $0.hasPrefix("    ") }
      let counts = perRule.compactMap { Int($0.dropFirst(4).split(separator: ",")[0]) }
      #expect(counts.reduce(0, +) == lookups)
      #expect(Set(keys.map { $0.split(separator: ":")[0] }).count == keys.count, "one line a key")
      for (rule, wins) in won {
        let traced = perRule.filter { $0.hasSuffix(" cached: \(rule)") }.compactMap {
          Int($0.dropFirst(4).split(separator: ",")[0])
        }
        #expect(traced.reduce(0, +) == wins, "\(rule)")
      }
      #expect(won.map(\.1).reduce(0, +) > 0)
    }
    let inspect = errors(of: "inspect Actor 1", in: runner, written)
    let page = try #require(inspect.firstIndex { $0.hasPrefix("  page: ") })
    #expect(inspect[page + 1].hasSuffix("task = 'inspect' => page = 'Inspect'"))
    #expect(inspect[page + 1].contains("cached: builtin rule "))
  }

  @Test(arguments: TestServer.available)
  func theAnsweringRuleIsNamed(server: TestServer) throws {
    let (runner, written) = try runner(server)
    runner.runLine("rule entity.name = 'Actor' => displayNameForEntity = 'Stars'")
    runner.runLine("trace on")
    let lines = errors(of: "list Actor limit 2", in: runner, written)
    let key = try #require(lines.firstIndex { $0.hasPrefix("  displayNameForEntity: ") })
    #expect(
      lines[key + 1].hasSuffix(
        " cached: rule 1: entity.name = 'Actor' => displayNameForEntity = 'Stars'"))
    let values = errors(
      of: "list Actor where lastName = 'ZZNOBODY' and firstName = 'ZZ' limit 3", in: runner,
      written)
    #expect(
      values.contains {
        $0.hasPrefix("sql ")
          && $0.contains(server == .postgresql ? " ms, 2 bound: SELECT " : " ms, 3 bound: SELECT ")
          && $0.contains("\"first_name\" = ")
      }, "the two names, and the limit unless PostgreSQL's, a number: \(values)")
    #expect(!values.joined().contains("ZZNOBODY"), "bound values are never shown")
  }

  @Test(arguments: TestServer.available)
  func rowsAreTheRowsShown(server: TestServer) throws {
    let (runner, written) = try runner(server)
    runner.runLine("timing on")
    let list = errors(of: "list Actor order by lastName limit 7", in: runner, written)
    #expect(written.output.contains { $0.hasPrefix("1–7 of 200 Actor") })
    #expect(list.count == 1)
    #expect(list.first?.hasSuffix(" · 7 rows") == true, "\(list)")
    let inspect = errors(of: "inspect Actor 1", in: runner, written)
    #expect(inspect.first?.hasSuffix(" ms") == true, "no rows part: \(inspect)")
    let empty = errors(of: "list Actor where lastName = 'ZZNOBODY'", in: runner, written)
    #expect(written.output.contains("no Actor found"))
    #expect(empty.first?.hasSuffix(" ms") == true, "\(empty)")
    let films = errors(of: "list Film limit 3", in: runner, written)
    #expect(films.first?.hasSuffix(" · 3 rows") == true, "\(films)")
  }

  @Test(arguments: TestServer.available)
  func jsonLines(server: TestServer) throws {
    let (runner, written) = try runner(server, json: true)
    runner.runLine("timing on")
    runner.runLine("trace on")
    let lines = errors(of: "list Language order by name limit 4", in: runner, written)
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
    let timing = try #require(objects.last?["timing"] as? [String: Any])
    #expect(timing["rows"] as? Int == 4)
    for key in ["ms", "sqlMs", "renderMs"] { #expect(timing[key] is Double || timing[key] is Int) }
    let lookups = try #require(objects.dropLast().last?["lookups"] as? [[String: Any]])
    #expect(lookups.compactMap { $0["count"] as? Int }.reduce(0, +) == timing["lookups"] as? Int)
    #expect(
      lookups.compactMap { $0["cached"] as? Int }.reduce(0, +) == timing["cachedLookups"] as? Int)
    let statements = objects.dropLast(2)
    #expect(statements.allSatisfy { $0["sql"] is String && $0["bound"] is Int && $0["ms"] != nil })
    #expect(statements.contains { ($0["sql"] as? String)?.contains("\"language\"") == true })
    let page = try #require(
      JSONSerialization.jsonObject(with: Data(written.output.joined().utf8)) as? [String: Any])
    #expect((page["rows"] as? [Any])?.count == 4)
  }
}
