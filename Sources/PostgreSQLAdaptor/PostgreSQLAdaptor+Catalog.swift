import D2SModel

extension PostgreSQLAdaptor {
  /// Relations of every schema the user may use, but the system's and D2S's own (`d2s`,
  /// where `d2s-serve --shared-sessions` keeps its sessions): tables, views, materialized
  /// views, foreign and partitioned tables, but not partitions.
  static let relationFilter = """
    c.relkind IN ('r', 'v', 'm', 'p', 'f') AND NOT c.relispartition
    AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
    AND n.nspname <> 'd2s'
    AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
    """

  /// The columns of every relation; `generated` reads `attgenerated` (PostgreSQL 12 and
  /// later; before, no column is generated).
  static func columnsQuery(generated: Bool) -> String {
    """
    SELECT n.nspname, c.relname, c.relkind, a.attname, a.attnotnull,
      pg_catalog.pg_get_expr(d.adbin, d.adrelid),
      COALESCE(bt.typname, t.typname), COALESCE(bt.typtype, t.typtype), COALESCE(bt.typcategory, t.typcategory),
      pg_catalog.format_type(a.atttypid, a.atttypmod), a.attidentity, \(generated ? "a.attgenerated" : "''"),
      \(hasEquality)
    FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
    LEFT JOIN pg_catalog.pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
    LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE \(relationFilter)
    ORDER BY n.nspname, c.relname, a.attnum
    """
  }

  /// Whether a column's (base) type has an exact `=`: an enum, range, composite or array type, or
  /// one with a default B-tree operator class, its own or that of a type it becomes
  /// implicitly and unchanged (`varchar` as `text`). Not `json`, `xml`, `point` or `box`
  /// (whose `=` compares areas).
  static let hasEquality = """
    (COALESCE(bt.typtype, t.typtype) IN ('e', 'r', 'm', 'c')
      OR COALESCE(bt.typcategory, t.typcategory) = 'A' OR EXISTS (
      SELECT 1 FROM pg_catalog.pg_opclass oc
      JOIN pg_catalog.pg_am am ON am.oid = oc.opcmethod
      WHERE am.amname = 'btree' AND oc.opcdefault
        AND (oc.opcintype = COALESCE(bt.oid, t.oid) OR EXISTS (
          SELECT 1 FROM pg_catalog.pg_cast ca
          WHERE ca.castsource = COALESCE(bt.oid, t.oid) AND ca.casttarget = oc.opcintype
            AND ca.castmethod = 'b' AND ca.castcontext = 'i'))))
    """

  static let primaryKeysQuery = """
    SELECT n.nspname, c.relname, a.attname
    FROM pg_catalog.pg_constraint con
    JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
    WHERE con.contype = 'p' AND \(relationFilter)
    ORDER BY n.nspname, c.relname, k.ord
    """

  static let foreignKeysQuery = """
    SELECT n.nspname, c.relname, con.conname, sa.attname, dn.nspname, dc.relname, da.attname
    FROM pg_catalog.pg_constraint con
    JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_catalog.pg_class dc ON dc.oid = con.confrelid
    JOIN pg_catalog.pg_namespace dn ON dn.oid = dc.relnamespace
    CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(src, dst, ord)
    JOIN pg_catalog.pg_attribute sa ON sa.attrelid = con.conrelid AND sa.attnum = k.src
    JOIN pg_catalog.pg_attribute da ON da.attrelid = con.confrelid AND da.attnum = k.dst
    WHERE con.contype = 'f' AND \(relationFilter)
    ORDER BY n.nspname, c.relname, con.conname, k.ord
    """

  /// The tables' `tsvector` columns that a GIN or GiST index of one column covers, in column
  /// order.
  static let fullTextQuery = """
    SELECT n.nspname, c.relname, a.attname
    FROM pg_catalog.pg_index i
    JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_catalog.pg_am am ON am.oid = ic.relam
    JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
    WHERE am.amname IN ('gin', 'gist') AND i.indnatts = 1
      AND a.atttypid = 'pg_catalog.tsvector'::pg_catalog.regtype
    ORDER BY n.nspname, c.relname, a.attnum
    """

  /// Reads the tables, views, columns, keys and foreign keys of every schema the user may use.
  public func readCatalog() throws -> Catalog {
    struct Draft {
      var schema: String
      var name: String
      var isView: Bool
      var columns: [Catalog.Column] = []
      var primaryKey: [String] = []
      var foreignKeys: [String: Catalog.ForeignKey] = [:]
    }
    var drafts: [String: Draft] = [:]
    var order: [String] = []
    func key(_ schema: String?, _ name: String?) -> String { "\(schema ?? "").\(name ?? "")" }

    let version =
      try connection.run(
        SQLStatement(raw: "SELECT pg_catalog.current_setting('server_version_num')")
      ).rows.first?[0].flatMap { Int($0) } ?? 0
    let columns = try connection.run(
      SQLStatement(raw: Self.columnsQuery(generated: version >= 120_000)))
    for row in columns.rows {
      let (schema, name) = (row[0] ?? "", row[1] ?? "")
      let id = key(schema, name)
      if drafts[id] == nil {
        drafts[id] = Draft(schema: schema, name: name, isView: row[2] == "v" || row[2] == "m")
        order.append(id)
      }
      let typeName = row[6] ?? "text"
      let formatted = row[9] ?? typeName
      let (valueType, dateKind) = PostgreSQLTypes.valueType(
        typeName: typeName, isEnum: row[7] == "e", isArray: row[8] == "A")
      let defaultValue = row[5]
      let isIdentity = (row[10] ?? "").isEmpty == false
      // `money` has the two decimals of the locales whose form it is read in (`-$5.00`).
      let (width, scale) = typeName == "money" ? (nil, 2) : Catalog.widthAndScale(formatted)
      drafts[id]?.columns.append(
        Catalog.Column(
          name: row[3] ?? "", externalType: formatted, valueType: valueType, dateKind: dateKind,
          allowsNull: row[4] != "t", defaultValue: defaultValue,
          isAutoIncrement: isIdentity || (defaultValue?.hasPrefix("nextval(") ?? false),
          width: width, scale: scale, isBlankPadded: typeName == "bpchar",
          needsTextCast: row[7] == "e" || typeName == "tsvector",
          isGenerated: (row[11] ?? "").isEmpty == false, hasEquality: row[12] != "f"))
    }
    for row in try connection.run(SQLStatement(raw: Self.primaryKeysQuery)).rows {
      drafts[key(row[0], row[1])]?.primaryKey.append(row[2] ?? "")
    }
    var foreignKeyOrder: [String: [String]] = [:]
    for row in try connection.run(SQLStatement(raw: Self.foreignKeysQuery)).rows {
      let table = key(row[0], row[1])
      let constraint = row[2] ?? ""
      if drafts[table]?.foreignKeys[constraint] == nil {
        drafts[table]?.foreignKeys[constraint] = Catalog.ForeignKey(
          columns: [], destinationTable: row[5] ?? "", destinationSchema: row[4],
          destinationColumns: [])
        foreignKeyOrder[table, default: []].append(constraint)
      }
      drafts[table]?.foreignKeys[constraint]?.columns.append(row[3] ?? "")
      drafts[table]?.foreignKeys[constraint]?.destinationColumns.append(row[6] ?? "")
    }
    // A tsvector column with a GIN or GiST index of its own: the table's full-text index.
    var fullText: [String: String] = [:]
    for row in try connection.run(SQLStatement(raw: Self.fullTextQuery)).rows {
      let table = key(row[0], row[1])
      if fullText[table] == nil, let column = row[2] { fullText[table] = column }
    }
    let tables = order.compactMap { id -> Catalog.Table? in
      guard let draft = drafts[id] else { return nil }
      let positions = Dictionary(
        draft.columns.enumerated().map { ($0.element.name, $0.offset) },
        uniquingKeysWith: { a, _ in a })
      let foreignKeys = (foreignKeyOrder[id] ?? []).compactMap { draft.foreignKeys[$0] }.sorted {
        (positions[$0.columns.first ?? ""] ?? 0) < (positions[$1.columns.first ?? ""] ?? 0)
      }
      var table = Catalog.Table(
        name: draft.name, schema: draft.schema, isView: draft.isView, columns: draft.columns,
        primaryKey: draft.primaryKey,
        foreignKeys: foreignKeys)
      table.fullTextIndex = fullText[id].map { FullTextIndex(.tsvector(column: $0), columns: nil) }
      return table
    }
    let searchPath = try connection.run(
      SQLStatement(raw: "SELECT unnest(pg_catalog.current_schemas(false))")
    ).rows.compactMap { $0[0] }
    return Catalog(tables: tables, searchPath: searchPath)
  }
}
