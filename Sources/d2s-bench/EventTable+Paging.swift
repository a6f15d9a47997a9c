import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor

/// The `paging` suite's `event` table: a text `kind` of four values (`kind = 'buy'` matches a
/// quarter of the rows), a decimal `amount` with no index, and a NOT NULL `happened_at` with an
/// index of its own. Row `i` is the same on SQLite and PostgreSQL (a multiplicative hash of
/// `i`), so both databases page through the same rows.
extension EventTable {
  /// The index on the sort key that `next` pages by.
  static let pagingIndex = "event_happened_at"

  /// The values of row `i`, in column order, from `x`, a hash of `i`; SQL both databases run.
  static let pagingColumns = """
    i, CASE i % 4 WHEN 0 THEN 'buy' WHEN 1 THEN 'sell' WHEN 2 THEN 'view' ELSE 'return' END,
      'event ' || (x % 100000), ((x / 256) % 100000) / 100.0, %TIME%,
      CASE WHEN x % 7 = 0 THEN NULL ELSE 'note ' || (x % 1000) END
    """

  /// The hash of `i`, and the seconds after 1970 that row `i` happened at.
  static let pagingHash = "(i * 2654435761) % 4294967296"
  static let pagingSeconds = "1500000000 + (x / 7) % 100000000"

  /// An SQLite file of `rows` paging events in `folder`; returns its path.
  static func makePaging(in folder: URL, rows: Int) throws -> String {
    let path = folder.appendingPathComponent("paging-\(rows).db").path
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let adaptor = try SQLiteAdaptor(path: path)
    let values = pagingColumns.replacingOccurrences(
      of: "%TIME%", with: "datetime(\(pagingSeconds), 'unixepoch')")
    try adaptor.executeScript(
      """
      CREATE TABLE event (event_id INTEGER PRIMARY KEY, kind TEXT NOT NULL, label TEXT NOT NULL,
        amount DECIMAL(10,2) NOT NULL, happened_at DATETIME NOT NULL, note TEXT);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
        INSERT INTO event SELECT \(values)
        FROM (SELECT i, \(pagingHash) AS x FROM n);
      CREATE INDEX \(pagingIndex) ON event (happened_at);
      """)
    return path
  }

  /// Creates schema `schema` on the PostgreSQL server at `url` (dropped first if it exists)
  /// holding an `event` table of `rows` paging events, generated server-side, then analyzed.
  /// With `copying`, the rows are the first `rows` of that schema's table instead.
  static func makePaging(
    postgres url: String, schema: String, rows: Int, copying source: String? = nil
  ) throws {
    let adaptor = try PostgreSQLAdaptor(url: url)
    let values = pagingColumns.replacingOccurrences(
      of: "%TIME%", with: "timestamp '1970-01-01' + (\(pagingSeconds)) * interval '1 second'")
    let rowsSQL =
      if let source {
        "SELECT * FROM \(source).event WHERE event_id <= \(rows)"
      } else {
        """
        SELECT \(values)
          FROM (SELECT i, \(pagingHash) AS x FROM generate_series(1::bigint, \(rows)) AS i) AS n
        """
      }
    try adaptor.executeScript(
      """
      DROP SCHEMA IF EXISTS \(schema) CASCADE;
      CREATE SCHEMA \(schema);
      CREATE TABLE \(schema).event (event_id bigint PRIMARY KEY, kind text NOT NULL,
        label text NOT NULL, amount numeric(10,2) NOT NULL, happened_at timestamp NOT NULL,
        note text);
      INSERT INTO \(schema).event \(rowsSQL);
      CREATE INDEX \(pagingIndex) ON \(schema).event (happened_at);
      ANALYZE \(schema).event;
      """)
  }

  /// Drops the schemas `makePaging(postgres:…)` made.
  static func dropPaging(postgres url: String, schemas: [String]) throws {
    let adaptor = try PostgreSQLAdaptor(url: url)
    try adaptor.executeScript(
      schemas.map { "DROP SCHEMA IF EXISTS \($0) CASCADE;" }.joined(separator: "\n"))
  }
}
