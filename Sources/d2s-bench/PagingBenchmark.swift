import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `paging` suite (issue 13): the built `d2s-repl` run in script mode as a user runs it,
/// over tables the suite generates (SQLite, 1,000,000 rows; PostgreSQL, 10,000,000 rows when
/// `D2S_BENCH_POSTGRES_URL` is set): a filtered and sorted first page against the shells, page
/// 1,000 reached by `next` against page 1 from d2s-repl's own `--timing` lines, the keyset
/// page's query plan, and peak memory while listing every PostgreSQL row.
enum PagingBenchmark {
  /// One line of the final table.
  struct Row {
    var measure: String
    var ratio: String
    var goal: String
  }

  /// The PostgreSQL schemas the suite creates and drops: 10,000,000 rows, and a 10,000-row copy.
  static let bigSchema = "d2s_bench_paging"
  static let smallSchema = "d2s_bench_paging_small"
  static let firstPage = "list Event where kind = 'buy' order by amount desc limit 20"
  /// The shells' query for the same 20 rows, with the columns the page shows.
  static let firstPageSQL = """
    select kind, label, amount, happened_at, note from event where kind = 'buy' \
    order by amount desc, event_id limit 20
    """

  static func run() throws {
    let repl = try Tools.built("d2s-repl")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-paging-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scripts = try PagingScripts(in: folder)
    print(
      "paging: d2s-repl \(repl) in script mode, \(ListBenchmark.rounds) alternated runs each, medians"
    )

    var table: [Row] = []
    let start = ContinuousClock.now
    let events = try EventTable.makePaging(in: folder, rows: 1_000_000)
    print("  SQLite: generated 1,000,000 events in \(seconds(since: start)) s")
    let first = try ListBenchmark.compare(
      "first page, kind = 'buy' by amount, 1,000,000 rows", [repl, events, "-f", scripts.first],
      against: ["sqlite3", "-box", events, firstPageSQL])
    table.append(
      Row(measure: "first page, filtered and sorted / sqlite3 -box", first.time, "≤ 1.3"))
    let pages = try PageTiming.measure(
      "page 1,000 by next, SQLite", [repl, events, "--timing", "-f", scripts.paging],
      folder: folder)
    table.append(Row(measure: "page 1,000 by next / page 1, SQLite (--timing)", pages, "≤ 1.2"))
    report(
      "SQLite EXPLAIN QUERY PLAN", try KeysetPlan.sqlite(events),
      traced: try TracedStatement.page([repl, events], folder: folder), &table)

    if let url = ProcessInfo.processInfo.environment["D2S_BENCH_POSTGRES_URL"] {
      try runPostgres(url, repl: repl, scripts: scripts, folder: folder, table: &table)
    } else {
      print("  (set D2S_BENCH_POSTGRES_URL to add PostgreSQL: 10,000,000 rows against psql)")
    }

    print("")
    print(pad("measure (same run, medians)", 60) + pad("ratio", 8) + "goal")
    for row in table { print(pad(row.measure, 60) + pad(row.ratio, 8) + row.goal) }
  }

  /// The PostgreSQL cases, on schemas made for them and dropped at the end. d2s-repl and psql
  /// see only the schema a case is about, through `PGOPTIONS` (`-c search_path=…`).
  static func runPostgres(
    _ url: String, repl: String, scripts: PagingScripts, folder: URL, table: inout [Row]
  ) throws {
    let start = ContinuousClock.now
    defer {
      do {
        try EventTable.dropPaging(postgres: url, schemas: [bigSchema, smallSchema])
      } catch {
        print("  warning: could not drop schemas \(bigSchema), \(smallSchema): \(error)")
      }
    }
    try EventTable.makePaging(postgres: url, schema: bigSchema, rows: 10_000_000)
    try EventTable.makePaging(postgres: url, schema: smallSchema, rows: 10_000, copying: bigSchema)
    print(
      "  PostgreSQL: generated 10,000,000 events (schema \(bigSchema)) and a 10,000-row copy "
        + "(\(smallSchema)), analyzed, in \(seconds(since: start)) s; each run sees one schema "
        + "(PGOPTIONS='-c search_path=…')")
    let big = ["PGOPTIONS": "-c search_path=\(bigSchema)"]
    let first = try ListBenchmark.compare(
      "first page, kind = 'buy' by amount, 10,000,000 rows", [repl, url, "-f", scripts.first],
      against: ["psql", "-X", "-d", url, "-c", firstPageSQL], environment: big)
    table.append(Row(measure: "first page, filtered and sorted / psql", first.time, "≤ 1.3"))
    let pages = try PageTiming.measure(
      "page 1,000 by next, PostgreSQL", [repl, url, "--timing", "-f", scripts.paging],
      folder: folder, environment: big)
    table.append(Row(measure: "page 1,000 by next / page 1, PostgreSQL (--timing)", pages, "≤ 1.2"))
    report(
      "PostgreSQL EXPLAIN", try KeysetPlan.postgres(url, schema: bigSchema),
      traced: try TracedStatement.page([repl, url], folder: folder, environment: big), &table)
    let memory = try PeakMemory.compare(
      [repl, url, "-c", "list Event"], big: big,
      small: ["PGOPTIONS": "-c search_path=\(smallSchema)"])
    table.append(
      Row(measure: "peak memory, list 10,000,000 rows / 10,000 (PostgreSQL)", memory, "≤ 1.5"))
  }

  /// Prints a keyset page's plan, and the statement `d2s-repl --trace` shows for `next`
  /// (`traced`, when there is one) beside the one explained; adds the verdict to `table`.
  static func report(
    _ label: String, _ plan: KeysetPlan, traced: Result<String, BenchError>, _ table: inout [Row]
  ) {
    print("  \(label) of the page-1,000 keyset statement:")
    print("    " + plan.statement)
    for line in plan.lines { print("    | " + line) }
    let verdict = plan.usesIndex ? "✓" : "✗"
    print("    \(verdict) \(plan.usesIndex ? "reads" : "does not read") \(EventTable.pagingIndex)")
    // The verdict stands only for d2s-repl's own statement: ✗ when --trace shows another.
    var (cell, goal) = (verdict, "✓")
    switch traced {
    case .failure(let error):
      print("    (\(error))")
      goal = "✓ (statement not traced)"
    case .success(let traced):
      let same = traced == plan.template
      print("    d2s-repl --trace, `next`: " + traced)
      print(
        same
          ? "    ✓ the statement explained is that one with its values written in"
          : "    ✗ the statement explained is not the one d2s-repl runs")
      if !same { (cell, goal) = ("✗", "✓ (d2s-repl runs another statement)") }
    }
    table.append(
      Row(
        measure: "\(label.split(separator: " ")[0]) page query walks \(EventTable.pagingIndex)",
        ratio: cell, goal: goal))
  }

  static func seconds(since start: ContinuousClock.Instant) -> String {
    let elapsed = ContinuousClock.now - start
    return format(
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }
}

extension PagingBenchmark.Row {
  /// A row for a ratio (`n/a` when the case could not run).
  init(measure: String, _ ratio: Double?, _ goal: String) {
    self.init(measure: measure, ratio: ratio.map { format($0, decimals: 2) } ?? "n/a", goal: goal)
  }
}
