import D2SModel
import EnvKeys
import Logging

extension SQLiteAdaptor {
  /// Tables and views from `sqlite_master`, columns from `table_xinfo` (generated columns
  /// marked, a virtual table's hidden columns left out), foreign keys from
  /// `foreign_key_list` (multi-column ones kept), and `INTEGER PRIMARY KEY` columns as
  /// auto-increment (rowid aliases). `sqlite_*` tables and the shadow tables of full-text and
  /// R-tree indexes are internal.
  ///
  /// A file's tables and views are only named here, with one statement over `sqlite_master`:
  /// their columns and keys are read when the model first needs them (``Catalog/details``),
  /// so a start that lists the entities reads no more than their names. An in-memory
  /// database is read whole now.
  public func readCatalog() throws -> Catalog {
    guard location.path != ":memory:" else {
      return Catalog(tables: try Self.readTables(on: self, viewsLater: false))
    }
    var order: [String] = []
    var views: Set<String> = []
    var virtualTables: [String] = []
    try query(
      SQLStatement(
        raw:
          "SELECT name, type = 'view', sql LIKE 'CREATE VIRTUAL TABLE%' FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"
      ),
      columns: [nil, nil, nil]
    ) { row in
      guard let table = row[0].stringValue else { return }
      order.append(table)
      if row[1].intValue == 1 { views.insert(table) }
      if row[2].intValue == 1 { virtualTables.append(table) }
    }
    let internalTables = Self.internalTables(order, virtualTables: virtualTables)
    var catalog = Catalog(
      tables: order.map {
        Catalog.Table(
          name: $0, isView: views.contains($0), columns: [], primaryKey: [], foreignKeys: [],
          isInternal: internalTables.contains($0))
      })
    let reader = CatalogReader(self)
    catalog.details = { reader.tables() }
    catalog.viewColumns = { reader.columns(ofView: $0) }
    return catalog
  }

  /// Every table and view of the database `adaptor` is open on, with their columns and keys;
  /// with `viewsLater`, views without columns (``Catalog/viewColumns`` reads them).
  static func readTables(on adaptor: SQLiteAdaptor, viewsLater: Bool) throws -> [Catalog.Table] {
    // Two statements for the whole catalog (the pragmas joined with sqlite_master), not two
    // per table. Views are only named: SQLite compiles a view to name its columns, and one it
    // can no longer compile (over a table dropped since) would fail the whole statement. A
    // file's views' columns are read when first asked for; an in-memory database's are read
    // now, one by one.
    let relations = "m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    var order: [String] = []
    var views: Set<String> = []
    var virtualTables: [String] = []
    var fullTextTables: [FTS5Table] = []
    var raw:
      [String: [(
        name: String, type: String, notNull: Bool, defaultValue: String?, pk: Int, hidden: Int
      )]] = [:]
    // A row: the table's name and type, a column's name, type, NOT NULL, default, key position
    // and kind (`hidden`), whether the table is virtual, a virtual table's SQL.
    func add(_ row: [DatabaseValue]) {
      guard let table = row[0].stringValue else { return }
      if raw[table] == nil {
        order.append(table)
        if row[1].stringValue == "view" { views.insert(table) }
        if row[8].intValue == 1 {
          virtualTables.append(table)
          if let sql = row[9].stringValue, let found = FTS5Table(name: table, sql: sql) {
            fullTextTables.append(found)
          }
        }
      }
      // A view: its one row has no column.
      guard row[2].stringValue != nil else { return }
      let hidden = row[7].intValue ?? 0
      // 1: a virtual table's hidden column (fts5's rank); 2 and 3: generated columns.
      guard hidden != 1 else {
        if raw[table] == nil { raw[table] = [] }
        return
      }
      raw[table, default: []].append(
        (
          row[2].stringValue ?? "", row[3].stringValue ?? "", row[4].intValue == 1,
          row[5].stringValue, row[6].intValue ?? 0, hidden
        ))
    }
    do {
      try adaptor.query(
        SQLStatement(
          raw:
            "SELECT m.name, m.type, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk, p.hidden, \(Self.virtualColumns) FROM sqlite_master AS m LEFT JOIN pragma_table_xinfo(CASE WHEN m.type = 'table' THEN m.name END) AS p WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid"
        ),
        columns: [nil, nil, nil, nil, nil, nil, nil, nil, nil, nil], row: add)
    } catch let error as DatabaseError where error.code == .other {
      // One table SQLite cannot describe (a virtual table whose module is not loaded here)
      // fails the statement: each table read on its own, that one without columns.
      order = []
      views = []
      virtualTables = []
      fullTextTables = []
      raw = [:]
      try eachTable(
        on: adaptor,
        "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid",
        columns: 6, views: true
      ) { table, column in
        add(
          [table[0], table[1]] + (column ?? Array(repeating: .null, count: 6)) + [
            table[2], table[3],
          ])
      }
    }
    let internalTables = Self.internalTables(order, virtualTables: virtualTables)
    let rawColumns = raw
    var keysByTable: [String: [Int: (table: String, pairs: [(Int, String, String)])]] = [:]
    // A row: the table's name, then the key's id, a column's position in it, the table it
    // refers to, the column and the column referred to.
    func addKey(_ row: [DatabaseValue]) {
      guard let table = row[0].stringValue, row.count == 6, !row[1].isNull else { return }
      let id = row[1].intValue ?? 0
      var entry = keysByTable[table, default: [:]][id] ?? (row[3].stringValue ?? "", [])
      entry.pairs.append((row[2].intValue ?? 0, row[4].stringValue ?? "", row[5].stringValue ?? ""))
      keysByTable[table, default: [:]][id] = entry
    }
    do {
      try adaptor.query(
        SQLStatement(
          raw:
            "SELECT m.name, f.id, f.seq, f.\"table\", f.\"from\", f.\"to\" FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table' AND \(relations)"
        ),
        columns: [nil, nil, nil, nil, nil, nil], row: addKey)
    } catch let error as DatabaseError where error.code == .other {
      keysByTable = [:]
      try eachTable(
        on: adaptor, "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)",
        columns: 5, views: false
      ) { table, key in
        if let key { addKey([table[0]] + key) }
      }
    }
    var tables: [Catalog.Table] = []
    for name in order {
      let isView = views.contains(name)
      let raw = raw[name] ?? []
      var primaryKey = raw.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
      var columns = raw.map { column in
        SQLiteTypes.column(
          name: column.name, declaredType: column.type,
          // A key column holds no NULL, though SQLite lets one in where the key is no rowid
          // (a row so keyed could never be found again).
          notNull: column.notNull || (column.pk > 0 && !isView),
          defaultValue: column.defaultValue,
          isAutoIncrement: primaryKey == [column.name] && column.type.uppercased() == "INTEGER",
          isGenerated: column.hidden == 2 || column.hidden == 3)
      }
      // A table without a key is addressed by its rowid, unless it has none (a virtual table;
      // a WITHOUT ROWID table always has a key) or a column takes the name.
      if !isView, primaryKey.isEmpty,
        !virtualTables.contains(name), !internalTables.contains(name),
        !raw.contains(where: { ["rowid", "_rowid_", "oid"].contains($0.name.lowercased()) })
      {
        columns.insert(
          Catalog.Column(
            name: "rowid", externalType: "INTEGER", valueType: .int, allowsNull: false,
            isAutoIncrement: true, isRowID: true),
          at: 0)
        primaryKey = ["rowid"]
      }
      let keys = isView ? [:] : keysByTable[name] ?? [:]
      let positions = Dictionary(
        columns.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
      var foreignKeys = try keys.values.map { key -> Catalog.ForeignKey in
        let pairs = key.pairs.sorted { $0.0 < $1.0 }
        var destinationColumns = pairs.map(\.2)
        if destinationColumns.contains("") {
          // `REFERENCES t` without columns: the destination's primary key.
          destinationColumns = try adaptor.primaryKeyColumns(of: key.table)
        }
        return Catalog.ForeignKey(
          columns: pairs.map(\.1), destinationTable: key.table,
          destinationColumns: destinationColumns)
      }
      foreignKeys.sort {
        (positions[$0.columns.first ?? ""] ?? 0) < (positions[$1.columns.first ?? ""] ?? 0)
      }
      if isView, !viewsLater { columns = (try? Self.columns(ofView: name, on: adaptor)) ?? [] }
      var table = Catalog.Table(
        name: name, isView: isView, columns: columns, primaryKey: isView ? [] : primaryKey,
        foreignKeys: foreignKeys, isInternal: internalTables.contains(name))
      // The first FTS5 table over this one's rows, its columns those it indexes.
      if !isView, let index = fullTextTables.first(where: { $0.indexes(name) }) {
        let indexed = (rawColumns[index.name] ?? []).map(\.name)
        let names = Set(columns.map(\.name))
        if Set(indexed).isSubset(of: names) {
          table.fullTextIndex = FullTextIndex(.fts5(table: index.name), columns: indexed)
        }
      }
      tables.append(table)
    }
    return tables
  }

  /// The columns of `view`, read on `adaptor`'s connection.
  static func columns(ofView view: String, on adaptor: SQLiteAdaptor) throws -> [Catalog.Column] {
    var columns: [Catalog.Column] = []
    try adaptor.query(
      SQLStatement(
        raw: "SELECT name, type, \"notnull\", dflt_value, hidden FROM pragma_table_xinfo(?)",
        [.string(view)]),
      columns: [nil, nil, nil, nil, nil]
    ) { row in
      let hidden = row[4].intValue ?? 0
      guard hidden != 1 else { return }
      columns.append(
        SQLiteTypes.column(
          name: row[0].stringValue ?? "", declaredType: row[1].stringValue ?? "",
          notNull: row[2].intValue == 1, defaultValue: row[3].stringValue, isAutoIncrement: false,
          isGenerated: hidden == 2 || hidden == 3))
    }
    return columns
  }

  /// Runs `pragma` (a statement over one table's pragma, the table's name its one value) for
  /// each table (and view, with `views`) of the database `adaptor` is open on, by name:
  /// `row` gets the table's name, type, whether it is virtual and a virtual table's SQL,
  /// with each of the pragma's rows of `columns` values; once with nil for a view, a table
  /// without rows, or one the pragma fails for (said as a warning on the SQL logger).
  private static func eachTable(
    on adaptor: SQLiteAdaptor, _ pragma: String, columns: Int, views: Bool,
    row: ([DatabaseValue], [DatabaseValue]?) -> Void
  ) throws {
    var tables: [[DatabaseValue]] = []
    try adaptor.query(
      SQLStatement(
        raw:
          "SELECT m.name, m.type, \(virtualColumns) FROM sqlite_master AS m WHERE m.type IN ('table'\(views ? ", 'view'" : "")) ORDER BY m.name"
      ),
      columns: [nil, nil, nil, nil]
    ) { tables.append($0) }
    for table in tables {
      var described = false
      if table[1].stringValue == "table", let name = table[0].stringValue {
        do {
          try adaptor.query(
            SQLStatement(raw: pragma, [.string(name)]),
            columns: Array(repeating: nil, count: columns)
          ) {
            row(table, $0)
            described = true
          }
        } catch {
          DependencyValues.current.sqlLogger.warning(
            "\(adaptor.location.path): cannot read table \(name): \(error)")
        }
      }
      if !described { row(table, nil) }
    }
  }

  /// Whether `sqlite_master`'s row `m` is a virtual table, and a virtual table's SQL.
  static let virtualColumns =
    "m.sql LIKE 'CREATE VIRTUAL TABLE%', CASE WHEN m.sql LIKE 'CREATE VIRTUAL TABLE%' THEN m.sql END"

  /// The shadow tables' suffixes, by module: FTS3/4, FTS5 and R-tree.
  static let shadowSuffixes = [
    "content", "segments", "segdir", "docsize", "stat", "data", "idx", "config", "node",
    "parent", "rowid",
  ]

  /// `sqlite_*` tables, and the tables a virtual table keeps its index in (`docs_fts_segdir`
  /// for `docs_fts`).
  static func internalTables(_ tables: [String], virtualTables: [String]) -> Set<String> {
    var found = Set(tables.filter { $0.lowercased().hasPrefix("sqlite_") })
    let names = Set(tables)
    for virtual in virtualTables {
      for suffix in shadowSuffixes where names.contains("\(virtual)_\(suffix)") {
        found.insert("\(virtual)_\(suffix)")
      }
    }
    return found
  }

  private func primaryKeyColumns(of table: String) throws -> [String] {
    var pairs: [(Int, String)] = []
    try query(
      SQLStatement(raw: "SELECT name, pk FROM pragma_table_info(?)", [.string(table)]),
      columns: [nil, nil]
    ) { row in
      if let pk = row[1].intValue, pk > 0 { pairs.append((pk, row[0].stringValue ?? "")) }
    }
    return pairs.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
