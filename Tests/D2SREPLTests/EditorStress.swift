import D2SModel
import D2STesting
import Foundation

/// Concurrent editors: several `d2s-repl` processes edit the same few rows at once, each from
/// a generated script (edit a row, show the values it fetched, change one or two columns,
/// save, revert), checked by ``EditorStressCheck``.
struct EditorStress {
  typealias Attempt = EditorStressCheck.Attempt
  typealias Report = EditorStressCheck.Report
  static let items = EditorStressCheck.items
  static let sqliteSchema = EditorStressCheck.sqliteSchema
  static let postgresSchema = EditorStressCheck.postgresSchema

  var editors = 4
  var iterations: Int
  var seed: UInt64 = 14

  /// The script of one editor and the values it writes, by iteration.
  func script(editor: Int) -> (text: String, writes: [[(String, String)]]) {
    var random = SplitMix64(seed: seed &+ UInt64(editor))
    var lines: [String] = []
    var writes: [[(String, String)]] = []
    for iteration in 0..<iterations {
      let item = 1 + random.next(Self.items)
      let columns = [["name"], ["qty"], ["name", "qty"]][random.next(3)]
      let values = columns.map {
        ($0, $0 == "name" ? "e\(editor)i\(iteration)" : "\((editor + 1) * 100_000 + iteration)")
      }
      lines += ["edit Item \(item)", "show object.name", "show object.qty"]
      lines += values.map { "object.\($0.0) = \($0.0 == "name" ? "'\($0.1)'" : $0.1)" }
      lines += ["save", "revert"]
      writes.append(values)
    }
    return (lines.joined(separator: "\n") + "\n", writes)
  }

  /// Runs the editors on `database` (a path or URL) at once and checks the outcome through
  /// `adaptor`, a connection of the test's own.
  func run(database: String, adaptor: any DatabaseAdaptor, binary: String) throws -> Report {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-stress-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scripts = (0..<editors).map { script(editor: $0) }
    for (editor, script) in scripts.enumerated() {
      try script.text.write(
        to: folder.appendingPathComponent("\(editor).d2s"), atomically: true, encoding: .utf8)
    }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: editors) { editor in
      let file = { (suffix: String) in folder.appendingPathComponent("\(editor).\(suffix)").path }
      do {
        try Spawn.run(
          binary, [database, "-f", file("d2s")], outputPath: file("out"), errorPath: file("err"),
          timeout: Double(30 + iterations))
      } catch {
        failures.add("editor \(editor): \(error)")
      }
    }
    var report = Report()
    report.otherErrors = failures.all
    var attempts: [Attempt] = []
    for editor in 0..<editors {
      let out = try String(
        contentsOf: folder.appendingPathComponent("\(editor).out"), encoding: .utf8)
      let err = try String(
        contentsOf: folder.appendingPathComponent("\(editor).err"), encoding: .utf8)
      for line in err.split(separator: "\n") {
        if line.hasPrefix("error: conflict:") {
          report.conflicts += 1
        } else {
          report.otherErrors.append(String(line))
        }
      }
      attempts += Self.attempts(editor: editor, output: out, writes: scripts[editor].writes)
    }
    report.saves = attempts.filter(\.saved).count
    if report.saves + report.conflicts != editors * iterations {
      report.otherErrors.append(
        "\(report.saves) saves + \(report.conflicts) conflicts != \(editors * iterations) attempts")
    }
    try check(attempts, adaptor: adaptor, into: &report)
    return report
  }

  /// The attempts one editor's output shows: the fetched values (`show`), whether `save`
  /// said `saved`, and the row `revert` named.
  static func attempts(editor: Int, output: String, writes: [[(String, String)]]) -> [Attempt] {
    var attempts: [Attempt] = []
    var fetched: [String: String] = [:]
    var saved = false
    for line in output.split(separator: "\n") {
      if line.hasPrefix("object.name = ") || line.hasPrefix("object.qty = ") {
        let column = String(line.dropFirst("object.".count).prefix { $0 != " " })
        var value = String(line.dropFirst("object.\(column) = ".count))
        if let comment = value.range(of: "  # ") { value = String(value[..<comment.lowerBound]) }
        if value.hasPrefix("'") && value.hasSuffix("'") {
          value = String(value.dropFirst().dropLast())
        }
        fetched[column] = value
      } else if line.hasPrefix("saved Item ") {
        saved = true
      } else if line.hasPrefix("reverted Item "), attempts.count < writes.count {
        let item = Int(line.dropFirst("reverted Item ".count)) ?? 0
        let changes = writes[attempts.count].map {
          (column: $0.0, fetched: fetched[$0.0] ?? "?", new: $0.1)
        }
        attempts.append(Attempt(editor: editor, item: item, changes: changes, saved: saved))
        saved = false
        fetched = [:]
      }
    }
    return attempts
  }

  /// Compares the attempts with the change log and the final rows.
  func check(_ attempts: [Attempt], adaptor: any DatabaseAdaptor, into report: inout Report) throws
  {
    try EditorStressCheck.check(attempts, adaptor: adaptor, into: &report)
  }
}

/// Failures collected from several threads.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}
