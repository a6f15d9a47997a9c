import D2SModel

extension SQLiteAdaptor {
  /// Tables and views from `sqlite_master` (not `sqlite_*`), columns from `table_info`,
  /// foreign keys from `foreign_key_list` (multi-column ones kept), and `INTEGER PRIMARY KEY`
  /// columns as auto-increment (rowid aliases).
  public func readCatalog() throws -> Catalog {
    var relations: [(String, Bool)] = []
    try query(
      SQLStatement(
        "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"),
      columns: [nil, nil]
    ) { row in
      if let name = row[0].stringValue { relations.append((name, row[1].stringValue == "view")) }
    }
    var tables: [Catalog.Table] = []
    for (name, isView) in relations {
      var raw: [(name: String, type: String, notNull: Bool, defaultValue: String?, pk: Int)] = []
      try query(
        SQLStatement("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", [.string(name)]),
        columns: [nil, nil, nil, nil, nil]
      ) { row in
        raw.append((row[0].stringValue ?? "", row[1].stringValue ?? "", row[2].intValue == 1, row[3].stringValue, row[4].intValue ?? 0))
      }
      let primaryKey = raw.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
      let columns = raw.map { column in
        SQLiteTypes.column(
          name: column.name, declaredType: column.type, notNull: column.notNull || (primaryKey == [column.name] && column.type.uppercased() == "INTEGER"),
          defaultValue: column.defaultValue,
          isAutoIncrement: primaryKey == [column.name] && column.type.uppercased() == "INTEGER")
      }
      var keys: [Int: (table: String, pairs: [(Int, String, String)])] = [:]
      if !isView {
        try query(
          SQLStatement("SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)", [.string(name)]),
          columns: [nil, nil, nil, nil, nil]
        ) { row in
          let id = row[0].intValue ?? 0
          var entry = keys[id] ?? (row[2].stringValue ?? "", [])
          entry.pairs.append((row[1].intValue ?? 0, row[3].stringValue ?? "", row[4].stringValue ?? ""))
          keys[id] = entry
        }
      }
      let positions = Dictionary(columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
      var foreignKeys = try keys.values.map { key -> Catalog.ForeignKey in
        let pairs = key.pairs.sorted { $0.0 < $1.0 }
        var destinationColumns = pairs.map(\.2)
        if destinationColumns.contains("") {
          // `REFERENCES t` without columns: the destination's primary key.
          destinationColumns = try primaryKeyColumns(of: key.table)
        }
        return Catalog.ForeignKey(columns: pairs.map(\.1), destinationTable: key.table, destinationColumns: destinationColumns)
      }
      foreignKeys.sort { (positions[$0.columns.first ?? ""] ?? 0) < (positions[$1.columns.first ?? ""] ?? 0) }
      tables.append(
        Catalog.Table(name: name, isView: isView, columns: columns, primaryKey: isView ? [] : primaryKey, foreignKeys: foreignKeys))
    }
    return Catalog(tables: tables)
  }

  private func primaryKeyColumns(of table: String) throws -> [String] {
    var pairs: [(Int, String)] = []
    try query(SQLStatement("SELECT name, pk FROM pragma_table_info(?)", [.string(table)]), columns: [nil, nil]) { row in
      if let pk = row[1].intValue, pk > 0 { pairs.append((pk, row[0].stringValue ?? "")) }
    }
    return pairs.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
