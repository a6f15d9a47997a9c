import Foundation
import SQLiteAdaptor

/// The `list` suite: the built `d2s-repl` binary run as a user runs it (whole process, script
/// mode), each case alternated with its baseline in the same run, median ratios printed.
enum ListBenchmark {
  static let rentalJoin = """
    select r.rental_date, c.last_name, f.title from rental r left join customer c on c.customer_id = r.customer_id \
    left join inventory i on i.inventory_id = r.inventory_id left join film f on f.film_id = i.film_id order by r.rental_id
    """
  static let rentalScript = """
    rule task = 'list' AND entity.name = 'Rental' => displayPropertyKeys = ('rentalDate', 'customer.lastName', 'inventory.film.title')
    list Rental order by id
    """
  /// The same list in a third-party look (`d2s-bench-look`'s plugin): every column's
  /// component is the plugin's declared value component.
  static let thirdPartyLookRules = """
    rule *true* => look = 'LedgerLook'
    rule task = 'list' AND entity.name = 'Rental' => component = 'LedgerValue'

    """
  /// What `list Event` shows: each event's kind by its title (the kind's name) where its
  /// foreign key is, and its other columns but the surrogate key.
  static let eventJoin = """
    select k.name, e.label, e.amount, e.happened_at, e.note from event e left join kind k on k.kind_id = e.kind_id
    """
  static let rounds = Int(ProcessInfo.processInfo.environment["D2S_BENCH_ROUNDS"] ?? "") ?? 11

  static func run() throws {
    let repl = try Tools.built("d2s-repl")
    let baseline = try Tools.built("d2s-bench-baseline")
    let look = try Tools.built("d2s-bench-look")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-list-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sakila = try FetchBenchmark.sakilaFile()
    let script = folder.appendingPathComponent("rentals.d2s").path
    try rentalScript.write(toFile: script, atomically: true, encoding: .utf8)
    print(
      "list: d2s-repl \(repl) in script mode against the shells, \(rounds) alternated runs each, medians"
    )

    var table: [(String, Double, String)] = []
    let rentals = try compare(
      "16,044-row rental list", [repl, sakila, "-f", script],
      against: ["sqlite3", "-box", sakila, rentalJoin])
    table.append(("16,044-row rental list / sqlite3 -box, same join", rentals.time, "≤ 1.5"))
    let lookScript = folder.appendingPathComponent("rentals-look.d2s").path
    try (thirdPartyLookRules + rentalScript).write(
      toFile: lookScript, atomically: true, encoding: .utf8)
    try checkThirdPartyLook(look, sakila, in: folder)
    let thirdParty = try compare(
      "same list in a plugin's look", [look, sakila, "-f", lookScript],
      against: [repl, sakila, "-f", script])
    table.append(
      ("same list, a plugin look's value component / BasicLook's", thirdParty.time, "≤ 1.1"))
    if let url = ProcessInfo.processInfo.environment["D2S_BENCH_POSTGRES_URL"] {
      let postgres = try compare(
        "same list on PostgreSQL", [repl, url, "-f", script],
        against: ["psql", "-X", "-d", url, "-c", rentalJoin])
      table.append(("same list on PostgreSQL / psql", postgres.time, "≤ 1.5"))
    } else {
      print("  (set D2S_BENCH_POSTGRES_URL to add PostgreSQL against psql)")
    }
    let events = try EventTable.make(in: folder, rows: 1_000_000)
    let big = try compare(
      "1,000,000-row event list", [repl, events, "-c", "list Event"],
      against: ["sqlite3", "-box", events, eventJoin])
    table.append(("1,000,000-row list / sqlite3 -box, time", big.time, "≤ 1.5"))
    table.append(("same, peak memory / sqlite3 -box's", big.memory, "≤ 1.0"))
    let small = try EventTable.make(in: folder, rows: 100_000)
    let tenth = try compare(
      "100,000-row event list", [repl, small, "-c", "list Event"],
      against: ["sqlite3", "-box", small, eventJoin], rounds: 3)
    table.append(
      ("peak memory, 1,000,000 rows / 100,000 rows", big.ownMemory / tenth.ownMemory, "≤ 1.1"))
    let cold = try compare(
      "-c entities cold start", [repl, sakila, "-c", "entities"], against: [baseline, sakila])
    table.append(
      ("-c entities cold start / minimal Swift program", cold.time, "≤ 1.5 (moonshot 1.3)"))

    print("")
    print(pad("measure (same run, medians)", 52) + pad("ratio", 8) + "goal")
    for (name, ratio, goal) in table {
      print(pad(name, 52) + pad(format(ratio, decimals: 2), 8) + goal)
    }
  }

  /// Fails unless the plugin's look draws every column of the third-party case (a fallback to
  /// BasicLook would measure BasicLook against itself).
  static func checkThirdPartyLook(_ look: String, _ sakila: String, in folder: URL) throws {
    let path = folder.appendingPathComponent("look-check.d2s").path
    try
      (thirdPartyLookRules
      + rentalScript.replacingOccurrences(
        of: "list Rental order by id", with: "platform = 'json'\nlist Rental order by id limit 1"))
      .write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: look)
    process.arguments = [sakila, "-f", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let drawn = output.components(separatedBy: "\"component\":\"LedgerValue\"").count - 1
    guard process.terminationStatus == 0, drawn == 3 else {
      throw BenchError("the plugin's look drew \(drawn) of the rental list's 3 columns")
    }
  }

  struct Comparison {
    var time: Double
    var memory: Double
    var ownMemory: Double
  }

  /// Runs `command` and `baseline` alternately (both with `environment` added to this
  /// process's); prints and returns the median ratios.
  static func compare(
    _ label: String, _ command: [String], against baseline: [String], rounds: Int = rounds,
    environment: [String: String] = [:]
  ) throws -> Comparison {
    var ours: [ProcessRun] = []
    var theirs: [ProcessRun] = []
    for _ in 0..<rounds {
      ours.append(try ProcessRun.run(command, environment: environment))
      theirs.append(try ProcessRun.run(baseline, environment: environment))
    }
    if let failed = ours.first(where: { $0.status != 0 }) ?? theirs.first(where: { $0.status != 0 })
    {
      throw BenchError("\(label): a run exited with status \(failed.status)")
    }
    let time = (median(ours.map(\.milliseconds)), median(theirs.map(\.milliseconds)))
    let memory = (
      median(ours.map { Double($0.peakKilobytes) }), median(theirs.map { Double($0.peakKilobytes) })
    )
    print(
      "  \(label): \(URL(fileURLWithPath: command[0]).lastPathComponent) \(format(time.0)) ms, \(format(memory.0 / 1024)) MB; \(URL(fileURLWithPath: baseline[0]).lastPathComponent) "
        + "\(format(time.1)) ms, \(format(memory.1 / 1024)) MB")
    return Comparison(time: time.0 / time.1, memory: memory.0 / memory.1, ownMemory: memory.0)
  }
}

/// A generated `event` table: a to-one to a 100-row `kind` table, text, decimal, date-time and
/// nullable columns; the same rows for the same count (seeded).
enum EventTable {
  static func make(in folder: URL, rows: Int) throws -> String {
    let path = folder.appendingPathComponent("events-\(rows).db").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let adaptor = try SQLiteAdaptor(path: path)
    try adaptor.executeScript(
      """
      CREATE TABLE kind (kind_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE event (event_id INTEGER PRIMARY KEY, kind_id INTEGER NOT NULL REFERENCES kind(kind_id),
        label TEXT NOT NULL, amount DECIMAL(10,2) NOT NULL, happened_at DATETIME NOT NULL, note TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
        INSERT INTO kind SELECT i, 'kind ' || i FROM n;
      WITH RECURSIVE n(i, x) AS (SELECT 1, 42 UNION ALL SELECT i + 1, (x * 1103515245 + 12345) % 2147483648 FROM n WHERE i < \(rows))
        INSERT INTO event SELECT i, 1 + x % 100, 'event ' || (x % 100000), (x % 100000) / 100.0,
          datetime(1500000000 + x % 100000000, 'unixepoch'), CASE WHEN x % 7 = 0 THEN NULL ELSE 'note ' || (x % 1000) END FROM n;
      """)
    return path
  }
}
