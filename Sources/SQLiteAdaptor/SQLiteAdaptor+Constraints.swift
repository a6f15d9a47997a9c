import D2SModel
import Foundation
import Synchronization

extension SQLiteAdaptor {
  /// The quoted strings of a `CHECK (column IN ('a', 'b'))` on the column, in the table's SQL.
  public func allowedValues(of attribute: Attribute, in entity: Entity) throws -> [String]? {
    guard !entity.isView, attribute.valueType == .string else { return nil }
    var sql: String?
    try query(
      SQLStatement(
        raw:
          "SELECT sql FROM \(dialect.quote(table: "sqlite_master", schema: entity.schema)) WHERE type = 'table' AND name = ?",
        [.string(entity.externalName)]), columns: [nil]
    ) { sql = $0.first?.stringValue }
    guard let sql else { return nil }
    return CheckConstraintList.values(of: attribute.columnName, in: sql)
  }

  /// `ON DELETE` of the foreign key, as `pragma_foreign_key_list` reports it (SQLite enforces
  /// keys on D2S's connections: `PRAGMA foreign_keys = ON`).
  public func deleteAction(ofForeignKey columns: [String], in entity: Entity) throws
    -> DeleteAction?
  {
    var keys: [Int: (columns: [String], action: String)] = [:]
    try query(
      SQLStatement(
        raw:
          "SELECT id, \"from\", on_delete FROM pragma_foreign_key_list(?, ?) ORDER BY id, seq",
        [.string(entity.externalName), .string(entity.schema ?? "main")]),
      columns: [nil, nil, nil]
    ) { row in
      guard let id = row[0].intValue, let column = row[1].stringValue else { return }
      keys[id, default: ([], row[2].stringValue ?? "")].columns.append(column)
    }
    guard let key = keys.values.first(where: { $0.columns == columns }) else { return nil }
    switch key.action.uppercased() {
    case "CASCADE": return .cascade
    case "SET NULL": return .setNull
    case "SET DEFAULT": return .setDefault
    default: return .refuse
    }
  }
}

/// The values of `CHECK (column IN ('a', 'b', …))` in a table's SQL.
enum CheckConstraintList {
  /// Lists already read, by column and table SQL: an edit form asks on every request, and
  /// compiling the expression costs more than the rest of the form's field.
  private static let known = Mutex<[String: [String]?]>([:])

  static func values(of column: String, in sql: String) -> [String]? {
    let key = column + "\u{0}" + sql
    if let found = known.withLock({ $0[key] }) { return found }
    let values = read(column, in: sql)
    known.withLock { known in
      if known.count >= 1_024 { known.removeAll() }
      known[key] = .some(values)
    }
    return values
  }

  private static func read(_ column: String, in sql: String) -> [String]? {
    let name = NSRegularExpression.escapedPattern(for: column)
    let pattern =
      #"(?i)check\s*\(\s*(?:"\#(name)"|`\#(name)`|\[\#(name)\]|\#(name))\s+in\s*\(((?:\s*'(?:[^']|'')*'\s*,?)+)\)\s*\)"#
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
      let range = Range(match.range(at: 1), in: sql)
    else { return nil }
    var values: [String] = []
    var current = ""
    var inside = false
    var scalars = sql[range].unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      if !inside {
        if scalar == "'" { inside = true }
        continue
      }
      if scalar == "'" {
        if pending == "'" {
          current.unicodeScalars.append("'")
          pending = scalars.next()
        } else {
          values.append(current)
          current = ""
          inside = false
        }
      } else {
        current.unicodeScalars.append(scalar)
      }
    }
    return values.isEmpty ? nil : values
  }
}
