import D2SModel
import Foundation

/// Concurrent editors of the same few rows, checked against the database's own change log: a
/// trigger logs every column change with its old and new value, and the check compares the
/// log with what each editor was told (SPEC §4: locking is per column). The REPL's stress
/// (`d2s-repl` processes) and the web's (HTTP clients of `d2s-serve`) share it.
public enum EditorStressCheck {
  /// What one editor tried once.
  public struct Attempt: Sendable {
    public var editor: Int
    public var item: Int
    /// Column, the value the editor fetched, the value it wrote.
    public var changes: [(column: String, fetched: String, new: String)]
    public var saved: Bool

    /// An attempt.
    public init(
      editor: Int, item: Int, changes: [(column: String, fetched: String, new: String)],
      saved: Bool
    ) {
      self.editor = editor
      self.item = item
      self.changes = changes
      self.saved = saved
    }
  }

  /// The outcome of a run.
  public struct Report: CustomStringConvertible, Sendable {
    public var saves = 0
    public var conflicts = 0
    public var otherErrors: [String] = []
    /// Saves reported as applied whose change is not in the log, or that overwrote a value
    /// the editor had not fetched.
    public var lostUpdates: [String] = []
    /// Changes in the log that no reported save made.
    public var phantomWrites: [String] = []
    /// Columns whose final value is not the last logged write.
    public var wrongFinalValues: [String] = []

    /// An empty report.
    public init() {}

    public var description: String {
      "saves: \(saves), conflicts: \(conflicts), other errors: \(otherErrors.count), lost updates: \(lostUpdates.count), "
        + "phantom writes: \(phantomWrites.count), wrong final values: \(wrongFinalValues.count)"
    }
  }

  /// The rows edited.
  public static let items = 2

  /// The items and their change log (SQLite).
  public static let sqliteSchema = """
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL);
    CREATE TABLE item_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id INTEGER, col TEXT, old TEXT, new TEXT);
    INSERT INTO item (name, qty) VALUES ('a', 1), ('b', 2), ('c', 3);
    CREATE TRIGGER log_name AFTER UPDATE OF name ON item WHEN OLD.name IS NOT NEW.name BEGIN
      INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'name', OLD.name, NEW.name); END;
    CREATE TRIGGER log_qty AFTER UPDATE OF qty ON item WHEN OLD.qty IS NOT NEW.qty BEGIN
      INSERT INTO item_log (item_id, col, old, new) VALUES (NEW.id, 'qty', OLD.qty, NEW.qty); END;
    """
  /// The items and their change log (PostgreSQL).
  public static let postgresSchema = """
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

  /// Compares the attempts with the change log and the final rows.
  public static func check(
    _ attempts: [Attempt], adaptor: any DatabaseAdaptor, into report: inout Report
  ) throws {
    var log: [(item: Int, column: String, old: String, new: String)] = []
    try adaptor.query(
      SQLStatement(raw: "SELECT item_id, col, old, new FROM item_log ORDER BY seq"), columns: []
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
    try adaptor.query(SQLStatement(raw: "SELECT id, name, qty FROM item ORDER BY id"), columns: [])
    {
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
