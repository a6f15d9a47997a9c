import D2SModel

extension SQLiteAdaptor {
  /// Tables and views from `sqlite_master` (not `sqlite_*`), columns from `table_info`,
  /// foreign keys from `foreign_key_list` (multi-column ones kept), and `INTEGER PRIMARY KEY`
  /// columns as auto-increment (rowid aliases).
  public func readCatalog() throws -> Catalog {
    // Two statements for the whole catalog (the pragmas joined with sqlite_master), not two
    // per table: a start-up reads every table's columns.
    let relations = "m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    var order: [String] = []
    var views: Set<String> = []
    var raw:
      [String: [(name: String, type: String, notNull: Bool, defaultValue: String?, pk: Int)]] =
        [:]
    try query(
      SQLStatement(
        "SELECT m.name, m.type, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type IN ('table', 'view') AND \(relations) ORDER BY m.name, p.cid"
      ),
      columns: [nil, nil, nil, nil, nil, nil, nil]
    ) { row in
      guard let table = row[0].stringValue else { return }
      if raw[table] == nil {
        order.append(table)
        if row[1].stringValue == "view" { views.insert(table) }
      }
      raw[table, default: []].append(
        (
          row[2].stringValue ?? "", row[3].stringValue ?? "", row[4].intValue == 1,
          row[5].stringValue, row[6].intValue ?? 0
        ))
    }
    var keysByTable: [String: [Int: (table: String, pairs: [(Int, String, String)])]] = [:]
    try query(
      SQLStatement(
        "SELECT m.name, f.id, f.seq, f.\"table\", f.\"from\", f.\"to\" FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table' AND \(relations)"
      ),
      columns: [nil, nil, nil, nil, nil, nil]
    ) { row in
      guard let table = row[0].stringValue else { return }
      let id = row[1].intValue ?? 0
      var entry = keysByTable[table, default: [:]][id] ?? (row[3].stringValue ?? "", [])
      entry.pairs.append((row[2].intValue ?? 0, row[4].stringValue ?? "", row[5].stringValue ?? ""))
      keysByTable[table, default: [:]][id] = entry
    }
    var tables: [Catalog.Table] = []
    for name in order {
      let isView = views.contains(name)
      let raw = raw[name] ?? []
      let primaryKey = raw.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
      let columns = raw.map { column in
        SQLiteTypes.column(
          name: column.name, declaredType: column.type,
          notNull: column.notNull
            || (primaryKey == [column.name] && column.type.uppercased() == "INTEGER"),
          defaultValue: column.defaultValue,
          isAutoIncrement: primaryKey == [column.name] && column.type.uppercased() == "INTEGER")
      }
      let keys = isView ? [:] : keysByTable[name] ?? [:]
      let positions = Dictionary(
        columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
      var foreignKeys = try keys.values.map { key -> Catalog.ForeignKey in
        let pairs = key.pairs.sorted { $0.0 < $1.0 }
        var destinationColumns = pairs.map(\.2)
        if destinationColumns.contains("") {
          // `REFERENCES t` without columns: the destination's primary key.
          destinationColumns = try primaryKeyColumns(of: key.table)
        }
        return Catalog.ForeignKey(
          columns: pairs.map(\.1), destinationTable: key.table,
          destinationColumns: destinationColumns)
      }
      foreignKeys.sort {
        (positions[$0.columns.first ?? ""] ?? 0) < (positions[$1.columns.first ?? ""] ?? 0)
      }
      tables.append(
        Catalog.Table(
          name: name, isView: isView, columns: columns, primaryKey: isView ? [] : primaryKey,
          foreignKeys: foreignKeys))
    }
    return Catalog(tables: tables)
  }

  private func primaryKeyColumns(of table: String) throws -> [String] {
    var pairs: [(Int, String)] = []
    try query(
      SQLStatement("SELECT name, pk FROM pragma_table_info(?)", [.string(table)]),
      columns: [nil, nil]
    ) { row in
      if let pk = row[1].intValue, pk > 0 { pairs.append((pk, row[0].stringValue ?? "")) }
    }
    return pairs.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
