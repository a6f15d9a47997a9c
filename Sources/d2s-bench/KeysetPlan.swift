import D2SModel
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor

/// The query plan of a keyset page on the paging `event` table: the statement `next` runs for
/// page 1,000 of `list Event order by happenedAt limit 20` (the shape d2s-repl's SQL builder
/// writes, with the position of page 999's last row as literals), and whether the database
/// reads it through the sort key's index rather than scanning and sorting the table.
struct KeysetPlan {
  /// The statement explained, with its values written in.
  var statement: String
  /// The same with the placeholders d2s-repl's builder writes (`?`, or `$1`…`$5`), as
  /// `d2s-repl --trace` prints it.
  var template: String
  /// The plan's lines, as the database prints them.
  var lines: [String]
  /// Whether the plan walks ``EventTable/pagingIndex`` and nothing scans the whole table.
  var usesIndex: Bool

  /// The rows before page 1,000 (999 pages of 20).
  static let rowsBefore = 999 * 20

  /// The keyset page statement for a table named `table` (schema-qualified and quoted as
  /// needed), with `values` where the builder binds its five values, in text order: the sort
  /// key three times, the primary key, the limit. `positions` are the columns a page reads
  /// each row's position with, after the row's own.
  static func statement(table: String, values: [String], positions: [String]) -> String {
    let columns =
      ["event_id", "kind", "label", "amount", "happened_at", "note"].map { "t0.\"\($0)\"" }
      + positions
    let value = { (index: Int) in index < values.count ? values[index] : "?" }
    return """
      SELECT \(columns.joined(separator: ", ")) FROM \(table) t0 \
      WHERE (t0."happened_at" >= \(value(0)) AND ((t0."happened_at" > \(value(1))) \
      OR (t0."happened_at" = \(value(2)) AND t0."event_id" > \(value(3))))) \
      ORDER BY t0."happened_at" ASC, t0."event_id" ASC LIMIT \(value(4))
      """
  }

  /// The statement's values as literals, after the row at (`happenedAt`, `eventID`).
  static func literals(happenedAt: String, eventID: Int) -> [String] {
    let time = "'\(happenedAt.replacingOccurrences(of: "'", with: "''"))'"
    // 21: a page reads one row more than it shows, to know whether another follows.
    return [time, time, time, String(eventID), "21"]
  }

  /// The columns a page reads its rows' positions from (as d2s-repl's page statement does).
  static let positionColumns = ["t0.\"happened_at\"", "t0.\"event_id\""]

  /// The position (sort key as text, primary key) of the last row before page 1,000.
  static let positionQuery = """
    SELECT CAST(happened_at AS text), event_id FROM %TABLE% ORDER BY happened_at, event_id \
    LIMIT 1 OFFSET \(rowsBefore - 1)
    """

  /// `EXPLAIN QUERY PLAN` of the page statement in the SQLite file at `path`.
  static func sqlite(_ path: String) throws -> KeysetPlan {
    let adaptor = try SQLiteAdaptor(path: path, readOnly: true)
    let (time, id) = try position(adaptor, table: "\"event\"")
    let positions = positionColumns
    let statement = statement(
      table: "\"event\"", values: literals(happenedAt: time, eventID: id), positions: positions)
    let template = self.statement(
      table: "\"event\"", values: Array(repeating: "?", count: 5), positions: positions)
    var lines: [String] = []
    try adaptor.query(SQLStatement(raw: "EXPLAIN QUERY PLAN " + statement), columns: []) { row in
      if case .string(let detail)? = row.last { lines.append(detail) }
    }
    // A SEARCH through the index; no sort of its own, no scan of the table.
    let usesIndex =
      lines.contains { $0.contains("INDEX \(EventTable.pagingIndex)") }
      && !lines.contains {
        $0.contains("TEMP B-TREE") || ($0.hasPrefix("SCAN") && !$0.contains("INDEX"))
      }
    return KeysetPlan(
      statement: statement, template: template, lines: lines, usesIndex: usesIndex)
  }

  /// `EXPLAIN` of the page statement on the `event` table of `schema` at `url`.
  static func postgres(_ url: String, schema: String) throws -> KeysetPlan {
    let adaptor = try PostgreSQLAdaptor(url: url, readOnly: true)
    let table = "\"\(schema)\".\"event\""
    let (time, id) = try position(adaptor, table: table)
    let positions = positionColumns
    let statement = statement(
      table: table, values: literals(happenedAt: time, eventID: id), positions: positions)
    // PostgreSQL's LIMIT is written as a number (see `SQLDialect.writesLimitsAsNumbers`).
    let template = self.statement(
      table: table, values: (1...4).map { "$\($0)" } + ["21"], positions: positions)
    var lines: [String] = []
    try adaptor.query(SQLStatement(raw: "EXPLAIN " + statement), columns: []) { row in
      if case .string(let line)? = row.first { lines.append(line) }
    }
    let usesIndex =
      lines.contains {
        $0.contains("Index Scan using \(EventTable.pagingIndex)")
          || $0.contains("Index Only Scan using \(EventTable.pagingIndex)")
      } && !lines.contains { $0.contains("Seq Scan") }
    return KeysetPlan(
      statement: statement, template: template, lines: lines, usesIndex: usesIndex)
  }

  private static func position(_ adaptor: any DatabaseAdaptor, table: String) throws -> (
    String, Int
  ) {
    var found: (String, Int)?
    let query = positionQuery.replacingOccurrences(of: "%TABLE%", with: table)
    try adaptor.query(SQLStatement(raw: query), columns: []) { row in
      if row.count == 2, case .string(let time) = row[0], case .int(let id) = row[1] {
        found = (time, id)
      }
    }
    guard let found else { throw BenchError("no row \(rowsBefore) in \(table)") }
    return found
  }
}
