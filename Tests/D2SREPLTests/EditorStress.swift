import D2SModel
import D2STesting
import Foundation

/// Concurrent editors: several `d2s-repl` processes edit the same few rows at once, each from
/// a generated script (edit a row, show the values it fetched, change one or two columns,
/// save, revert). A trigger in the database logs every column change with its old and new
/// value; the check compares the log with what each editor was told (SPEC §4: locking is
/// per column).
struct EditorStress {
  /// What one editor tried once.
  struct Attempt {
    var editor: Int
    var item: Int
    /// Column, the value the editor fetched, the value it wrote.
    var changes: [(column: String, fetched: String, new: String)]
    var saved: Bool
  }

  /// The outcome of a run.
  struct Report: CustomStringConvertible {
    var saves = 0, conflicts = 0, otherErrors: [String] = []
    /// Saves reported as applied whose change is not in the log, or that overwrote a value
    /// the editor had not fetched.
    var lostUpdates: [String] = []
    /// Changes in the log that no reported save made.
    var phantomWrites: [String] = []
    /// Columns whose final value is not the last logged write.
    var wrongFinalValues: [String] = []
    var description: String {
      "saves: \(saves), conflicts: \(conflicts), other errors: \(otherErrors.count), lost updates: \(lostUpdates.count), "
        + "phantom writes: \(phantomWrites.count), wrong final values: \(wrongFinalValues.count)"
    }
  }

  static let items = 2
  static let sqliteSchema = """
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL);
    CREATE TABLE item_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id INTEGER, col TEXT, old TEXT, new TEXT);
    INSERT INTO item (name, qty) VALUES ('a', 1), ('b', 2), ('c', 3);
    CREATE TRIGGER log_name AFTER UPDATE OF name ON item WHEN OLD.name IS NOT NEW.name BEGIN
      INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'name', OLD.name, NEW.name); END;
    CREATE TRIGGER log_qty AFTER UPDATE OF qty ON item WHEN OLD.qty IS NOT NEW.qty BEGIN
      INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'qty', OLD.qty, NEW.qty); END;
    """
  static let postgresSchema = """
    CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL, qty integer NOT NULL);
    CREATE TABLE item_log (seq bigserial PRIMARY KEY, item_id integer, col text, old text, new text);
    INSERT INTO item (name, qty) VALUES ('a', 1), ('b', 2), ('c', 3);
    CREATE FUNCTION log_item() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.name IS DISTINCT FROM NEW.name THEN
        INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'name', OLD.name, NEW.name);
      END IF;
      IF OLD.qty IS DISTINCT FROM NEW.qty THEN
        INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'qty', OLD.qty::text, NEW.qty::text);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER log_item AFTER UPDATE ON item FOR EACH ROW EXECUTE FUNCTION log_item();
    """

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
    var log: [(item: Int, column: String, old: String, new: String)] = []
    try adaptor.query(
      SQLStatement("SELECT item_id, col, old, new FROM item_log ORDER BY seq"), columns: []
    ) { row in
      log.append(
        (
          row[0].intValue ?? 0, row[1].stringValue ?? "", row[2].stringValue ?? "",
          row[3].stringValue ?? ""
        ))
    }
    var matched = Set<Int>()
    for attempt in attempts where attempt.saved {
      for change in attempt.changes {
        let name = "editor \(attempt.editor) Item \(attempt.item).\(change.column) = \(change.new)"
        guard
          let index = log.indices.first(where: {
            log[$0].item == attempt.item && log[$0].column == change.column
              && log[$0].new == change.new
          })
        else {
          report.lostUpdates.append("\(name): reported saved, not in the database")
          continue
        }
        matched.insert(index)
        if log[index].old != change.fetched {
          report.lostUpdates.append(
            "\(name): overwrote \(log[index].old), fetched \(change.fetched)")
        }
      }
    }
    for index in log.indices where !matched.contains(index) {
      report.phantomWrites.append(
        "Item \(log[index].item).\(log[index].column) = \(log[index].new)")
    }
    try adaptor.query(SQLStatement("SELECT id, name, qty FROM item ORDER BY id"), columns: []) {
      row in
      let item = row[0].intValue ?? 0
      for (offset, column) in ["name", "qty"].enumerated() {
        let final = row[offset + 1].stringValue ?? row[offset + 1].intValue.map(String.init) ?? ""
        if let last = log.last(where: { $0.item == item && $0.column == column }), last.new != final
        {
          report.wrongFinalValues.append(
            "Item \(item).\(column) = \(final), last save wrote \(last.new)")
        }
      }
    }
  }
}

/// Failures collected from several threads.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}
