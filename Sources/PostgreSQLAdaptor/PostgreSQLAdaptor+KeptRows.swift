import D2SModel
import EnvKeys

/// A list page's rows kept from page to page while nothing is committed, as its count is
/// (see ``query(_:columns:countingRowsOf:with:row:)``).
///
/// Over PostgreSQL, reading a page's rows is most of the server's work for the page: an index
/// walk, each value written as text, the result sent. While the server's snapshot stays the
/// same, so do the rows. So a page's rows go with the snapshot they were read in, and the
/// next page's statement reads them only when its own snapshot differs:
///
/// ```sql
/// SELECT r.*, (SELECT pg_catalog.pg_current_snapshot()::text)
/// FROM (SELECT … ORDER BY … LIMIT 51) r
/// WHERE (SELECT pg_catalog.pg_current_snapshot()::text) IS DISTINCT FROM $n
/// ```
///
/// The server evaluates the condition once, before the rows (a one-time filter): when it is
/// false, the scan never starts and no row comes. Each row read ends with the snapshot it was
/// read in, the one the rows are kept with. No row can mean the rows kept are still the
/// table's or that none are left: the count's statement, sent right behind in the same round
/// trip, says which. Its snapshot is the same as the rows' or later, and a snapshot seen
/// again is one nothing was committed in since it was first seen, so when the count's is the
/// one the rows were kept with, so was the rows' statement's. Otherwise (a commit between the
/// two statements, or a page that has no rows now) the rows are read again, alone.
///
/// When the last page found the snapshot unchanged and a page's rows and count are kept with
/// the same one, the server is asked for its snapshot alone first
/// (``answerFromSnapshot(_:count:row:)``): one statement that reads no table, and the rows'
/// and the count's only when it moved.
///
/// Kept only where the count is (a plain table, outside transactions), for a statement that
/// reads that table alone (one `FROM`, no join: a joined table may be a view or a foreign
/// table, whose rows change without a commit) and whose result is bounded; at most
/// ``maximumKeptRows`` statements' rows per connection, and ``maximumKeptBytes`` in all.
extension PostgreSQLAdaptor {
  /// A statement's rows and the snapshot they were read in.
  struct KeptRows {
    /// `pg_current_snapshot()` as text, in the rows' own statement.
    var snapshot: String
    /// The rows, without the snapshot's column.
    var rows: [[DatabaseValue]]
    /// About how much memory they hold (``bytes(of:)``).
    var bytes: Int
  }

  /// A rows statement as it is kept: its text and its values.
  struct KeptRowsKey: Hashable {
    var sql: String
    var bindings: [DatabaseValue]
  }

  /// The most statements whose rows are kept per connection; past it, those kept are
  /// forgotten.
  static let maximumKeptRows = 64
  /// The most bytes of rows kept in all per connection (a page of 50 rows of 10 short columns
  /// holds about 16 KB); past it, those kept are forgotten. A result of more is not kept.
  static let maximumKeptBytes = 4 << 20

  /// About how much memory `values` hold: each value's own size and its text's or bytes'.
  static func bytes(of values: [DatabaseValue]) -> Int {
    values.reduce(32) { $0 + 16 + $1.heldByteCount }
  }

  /// Whether `statement` may have its rows kept: it reads one table, whole or in a window
  /// (one `FROM`, no `JOIN`, outside any quoted name), and its result is bounded.
  static func keepsRows(of statement: SQLStatement) -> Bool {
    guard (statement.rowBound ?? .max) <= PostgreSQLConnection.wholeResultRows,
      statement.sql.utf8.starts(with: "SELECT ".utf8)
    else { return false }
    var froms = 0
    var quoted = false
    for word in statement.sql.utf8.split(separator: UInt8(ascii: " ")) {
      // A quoted name may hold spaces and any word: words inside one are not read.
      let quotes = word.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
      if !quoted {
        if word.elementsEqual("FROM".utf8) { froms += 1 }
        if word.elementsEqual("JOIN".utf8) || word.contains(UInt8(ascii: "'")) { return false }
      }
      if quotes % 2 == 1 { quoted.toggle() }
    }
    return froms == 1 && !quoted
  }

  /// `statement` read only when the server's snapshot is not `snapshot`, each row ending with
  /// the snapshot it was read in (see above).
  static func readUnless(_ snapshot: String, _ statement: SQLStatement) -> SQLStatement {
    let now = "(SELECT pg_catalog.pg_current_snapshot()::text)"
    var guarded = SQLStatement(
      raw: "SELECT r.*, \(now) FROM (\(statement.sql)) r WHERE \(now) IS DISTINCT FROM $"
        + String(statement.bindings.count + 1),
      statement.bindings + [.string(snapshot)])
    guarded.rowBound = statement.rowBound
    return guarded
  }

  /// Runs `statement` (reading `columns`) with `conditional` (the count's statement, see
  /// ``query(_:columns:countingRowsOf:with:row:)``) behind it, handing `row` the rows kept
  /// when the snapshot is the one they were read in: the count statement's answer, or nil
  /// when it was not sent with the rows.
  func queryKeepingRows(
    _ statement: SQLStatement, columns: [Attribute?], followedBy conditional: SQLStatement,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> [DatabaseValue]? {
    let key = KeptRowsKey(sql: statement.sql, bindings: statement.bindings)
    let kept = keptRows.withLock { $0[key] }
    let guarded = Self.readUnless(kept?.snapshot ?? "", statement)
    prepare(conditional, behind: guarded)
    var read: [[DatabaseValue]] = []
    var readIn: String?
    var keeping = true
    var bytes = 0
    let answer = try query(guarded, columns: columns, followedBy: conditional) { values in
      guard case .string(let snapshot)? = values.last else {
        throw DatabaseError(.unsupported, "the rows came without their snapshot")
      }
      let own = Array(values.dropLast())
      readIn = snapshot
      if keeping {
        read.append(own)
        bytes += Self.bytes(of: own)
        keeping = bytes <= Self.maximumKeptBytes
      }
      try row(own)
    }?.first
    if let readIn {
      // Kept only when the count came in the same round trip: without it (no pipeline, or
      // the rows read on a helper connection), rows kept could not be told from no rows.
      if keeping, answer != nil {
        keep(KeptRows(snapshot: readIn, rows: read, bytes: bytes), for: key)
      }
      return answer
    }
    // No row: the rows kept are still the table's, or it has none now.
    guard let kept, !kept.rows.isEmpty else { return answer }
    if let answer, answer.count == 2, case .string(kept.snapshot) = answer[1] {
      keptRowsAnswers.withLock { $0 += 1 }
      snapshotMoved.withLock { $0 = false }
      for values in kept.rows { try row(values) }
      return answer
    }
    keptRows.withLock { _ = $0.removeValue(forKey: key) }
    try query(statement, columns: columns, row: row)
    return answer
  }

  /// The server's snapshot alone: no table read, the least a statement costs the server.
  static let snapshotQuery = SQLStatement(raw: "SELECT pg_catalog.pg_current_snapshot()::text")

  /// A page whose rows and count are both kept with the same snapshot, answered by asking the
  /// server for its snapshot alone, when the last page on this connection found it unchanged
  /// (while commits come one after the other, the rows' and the count's statements are sent
  /// straight away instead, and no round trip is added): the count, the rows kept handed to
  /// `row`; nil, nothing handed, when the snapshot moved or was not asked.
  func answerFromSnapshot(
    _ statement: SQLStatement, count: KeptCount, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    let key = KeptRowsKey(sql: statement.sql, bindings: statement.bindings)
    guard !snapshotMoved.withLock({ $0 }), let kept = keptRows.withLock({ $0[key] }),
      kept.snapshot == count.snapshot, !kept.rows.isEmpty
    else { return nil }
    var now: String?
    try query(Self.snapshotQuery, columns: [nil]) { values in
      if case .string(let snapshot)? = values.first { now = snapshot }
    }
    guard now == kept.snapshot else {
      snapshotMoved.withLock { $0 = true }
      return nil
    }
    keptRowsAnswers.withLock { $0 += 1 }
    keptCountAnswers.withLock { $0 += 1 }
    snapshotAnswers.withLock { $0 += 1 }
    for values in kept.rows { try row(values) }
    return count.count
  }

  /// Keeps `rows` for `key`, forgetting every statement's rows first when there would be too
  /// many.
  private func keep(_ rows: KeptRows, for key: KeptRowsKey) {
    keptRows.withLock { kept in
      let bytes = kept.values.reduce(rows.bytes) { $0 + $1.bytes }
      if kept.count >= Self.maximumKeptRows || bytes > Self.maximumKeptBytes {
        kept.removeAll()
      }
      kept[key] = rows
    }
  }
}
