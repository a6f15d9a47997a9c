import D2SModel
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor

#if canImport(Glibc)
  import Glibc
#endif

/// The `fetch` suite: every Sakila rental with `customer.lastName` and
/// `inventory.film.title`, into objects and into text, against the `sqlite3` shell (and
/// `psql`, given `D2S_BENCH_POSTGRES_URL`) running the equivalent join in the same run.
enum FetchBenchmark {
  static let join = """
    SELECT r.rental_date, c.last_name, f.title FROM rental r
    JOIN customer c ON c.customer_id = r.customer_id
    JOIN inventory i ON i.inventory_id = r.inventory_id
    JOIN film f ON f.film_id = i.film_id ORDER BY r.rental_id
    """

  static let specification = FetchSpecification(
    entityName: "Rental", prefetchKeyPaths: ["customer.lastName", "inventory.film.title"])

  static func run() throws {
    let path = try sakilaFile()
    print("fetch: all 16,044 rentals with rentalDate, customer.lastName, inventory.film.title")
    try compare(
      label: "sqlite", open: { try Database(adaptor: SQLiteAdaptor(path: path)) },
      shell: ["sqlite3", path, join.replacingOccurrences(of: "\n", with: " ")])
    if let url = ProcessInfo.processInfo.environment["D2S_BENCH_POSTGRES_URL"] {
      try compare(
        label: "postgresql", open: { try Database(adaptor: PostgreSQLAdaptor(url: url)) },
        shell: [
          "psql", "-X", "-q", "-A", "-t", "-d", url, "-c",
          join.replacingOccurrences(of: "\n", with: " "),
        ])
    } else {
      print("postgresql: set D2S_BENCH_POSTGRES_URL to compare with psql")
    }
  }

  static func compare(label: String, open: @escaping () throws -> Database, shell: [String]) throws
  {
    var measurement = Measurement()
    let database = try open()
    measurement.add("model", operations: 1) { blackHole(try? open()) }
    measurement.add("objects", operations: 1) {
      blackHole(try? database.fetch(specification).count)
    }
    measurement.add("loop", operations: 1) { blackHole(try? text(database).utf8.count) }
    measurement.add("shell", operations: 1) { blackHole(runShell(shell)) }
    let ms = measurement.run(rounds: 7).mapValues { $0 / 1e6 }
    let shellTime = ms["shell"] ?? .nan
    print("\(label): read and fancyfy the model \(format(ms["model"] ?? .nan)) ms")
    print(
      "\(label): objects \(format(ms["objects"] ?? .nan)) ms, hand-written text loop \(format(ms["loop"] ?? .nan)) ms, \(shell[0]) \(format(shellTime)) ms"
    )
    print("\(label): library-level figures only; what users run is measured by `d2s-bench list`")
  }

  /// The rows as `date|name|title` lines, like the shells print them: key paths resolved
  /// once, then read per row.
  static func text(_ database: Database) throws -> String {
    guard let rental = database.model.entity(named: "Rental") else { return "" }
    let paths = try ["rentalDate", "customer.lastName", "inventory.film.title"].map {
      try PropertyPath($0, from: rental, in: database.model)
    }
    var out = ""
    out.reserveCapacity(1 << 20)
    for object in try database.fetch(specification) {
      for (index, path) in paths.enumerated() {
        if index > 0 { out += "|" }
        switch path.value(in: object) {
        case .date(let date)?: out += ISODateText.format(date)
        case .string(let text)?: out += text
        default: break
        }
      }
      out += "\n"
    }
    return out
  }

  /// Runs a command with its output discarded; returns its exit status.
  static func runShell(_ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus
    } catch {
      return -1
    }
  }

  /// Sakila as an SQLite file in the temporary folder, built from `data/sakila` once.
  static func sakilaFile() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("d2s-bench-sakila.db")
      .path
    if FileManager.default.fileExists(atPath: path) { return path }
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("data/sakila")
    let building = path + ".building"
    try? FileManager.default.removeItem(atPath: building)
    _ = FileManager.default.createFile(atPath: building, contents: nil)
    let adaptor = try SQLiteAdaptor(path: building)
    try adaptor.executeScript(
      try String(contentsOf: folder.appendingPathComponent("sqlite-schema.sql"), encoding: .utf8))
    try adaptor.executeScript(
      try String(contentsOf: folder.appendingPathComponent("sqlite-data.sql"), encoding: .utf8))
    try FileManager.default.moveItem(atPath: building, toPath: path)
    return path
  }
}
