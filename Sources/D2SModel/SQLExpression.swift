import EnvKeys

/// SQL as a value: what every statement D2S sends is built from (in the manner of sql-kit).
///
/// An expression holds names and values, never SQL text: names are quoted and values bound
/// when ``SQLSerializer`` writes it out in a database's ``SQLDialect``, which is the only
/// place statement keywords are spelled.
public indirect enum SQLExpression: Sendable {
  /// `"name"`: a column or other identifier, quoted.
  case identifier(String)
  /// `t0."name"`: a column of a table the statement names `alias` (an alias of the builder's
  /// own, letters and digits).
  case column(String, alias: String)
  /// `"schema"."table"`, or `"table"`.
  case table(String, schema: String?)
  /// A value, bound as a parameter.
  case bind(DatabaseValue)
  /// `1 = 1` (true) or `1 = 0` (false).
  case constant(Bool)
  /// `*`, as in `count(*)`.
  case star
  /// `1`, as in `EXISTS (SELECT 1 …)`.
  case one
  /// `rowid`: SQLite's row id, unquoted (a quoted name that is no column is a string there).
  case rowID
  /// `t0.rowid`: SQLite's row id of the table under an alias.
  case rowIDOf(alias: String)
  /// `lower(x)`, `count(*)`, `COALESCE(a, b)`.
  case function(SQLFunction, [SQLExpression])
  /// `a = b`, `a < b`, `a IN (…)`, and the dialect's null-safe equality.
  case compare(SQLExpression, SQLOperator, SQLExpression)
  /// `x IS NULL`.
  case isNull(SQLExpression)
  /// `x IS NOT NULL`.
  case isNotNull(SQLExpression)
  /// `a AND b AND c`, unparenthesised.
  case all([SQLExpression])
  /// `a OR b OR c`, unparenthesised.
  case any([SQLExpression])
  /// `(x)`.
  case parenthesized(SQLExpression)
  /// `NOT (x)`.
  case not(SQLExpression)
  /// `(a, b, c)`, as the right side of `IN`.
  case list([SQLExpression])
  /// `x` as text, in the dialect's spelling (for a pattern match on a non-text column).
  case castToText(SQLExpression)
  /// A pattern match of `x` against a bound pattern already in the dialect's form.
  case like(SQLExpression, pattern: String, caseInsensitive: Bool)
  /// `EXISTS (SELECT …)`.
  case exists(SQLSelect)
  /// `(SELECT …)`, a scalar subquery.
  case subquery(SQLSelect)
  /// `x AS name`, a result column's name.
  case named(SQLExpression, as: String)

  /// `"name"` of the table `alias`: `t0."name"`.
  public static func column(_ name: String, of alias: String) -> SQLExpression {
    .column(name, alias: alias)
  }

  /// The conditions joined with `AND` (`1 = 1` when there are none, itself when one).
  public static func and(_ parts: [SQLExpression]) -> SQLExpression {
    parts.count == 1 ? parts[0] : parts.isEmpty ? .constant(true) : .all(parts)
  }
}

/// The functions the expression layer writes.
public enum SQLFunction: String, Sendable {
  /// `lower(x)`: text in lower case.
  case lower
  /// `count(*)`.
  case count
  /// `min(x)`.
  case min
  /// `max(x)`.
  case max
  /// `COALESCE(a, b)`: the first that is not NULL.
  case coalesce = "COALESCE"
  /// `to_tsquery(q)`: PostgreSQL's text search query.
  case toTSQuery = "to_tsquery"
  /// `ts_rank(v, q)`: how well a `tsvector` matches a query (higher is better).
  case tsRank = "ts_rank"
  /// `bm25(fts)`: how well an FTS5 row matches (lower is better).
  case bm25
  /// `numnode(q)`: the nodes of a text search query (0: the words were all dropped).
  case numnode
  /// `d2s_tally()`: counts its calls on the connection, and is NULL (SQLite's D2S connections
  /// define it): a last ORDER BY term of it counts the rows a sort takes in.
  case tally = "d2s_tally"
}

/// A comparison operator.
public enum SQLOperator: Sendable {
  /// `=`.
  case equal
  /// `<>`.
  case notEqual
  /// `<`.
  case lessThan
  /// `<=`.
  case lessThanOrEqual
  /// `>`.
  case greaterThan
  /// `>=`.
  case greaterThanOrEqual
  /// Null-safe equality, as the dialect spells it (`IS`, `IS NOT DISTINCT FROM`).
  case nullSafeEqual
  /// Null-safe inequality (`IS NOT`, `IS DISTINCT FROM`).
  case nullSafeNotEqual
  /// `IN`, before a ``SQLExpression/list(_:)``.
  case `in`
  /// SQLite's full-text `MATCH`.
  case match
  /// PostgreSQL's text search `@@`.
  case textSearch
}

/// What a statement reads from: a table or a subquery, under an alias of the builder's own.
public struct SQLSource: Sendable {
  /// `.table` or `.subquery`.
  public var source: SQLExpression
  /// The alias (letters and digits), or nil.
  public var alias: String?

  /// `source alias`.
  public init(_ source: SQLExpression, alias: String? = nil) {
    self.source = source
    self.alias = alias
  }
}

/// `LEFT JOIN source ON condition`.
public struct SQLJoin: Sendable {
  /// The joined table and its alias.
  public var source: SQLSource
  /// The join condition.
  public var on: SQLExpression

  /// A left join of `source` on `on`.
  public init(_ source: SQLSource, on: SQLExpression) {
    self.source = source
    self.on = on
  }
}

/// One `ORDER BY` key: `x ASC NULLS FIRST`, `x DESC`, or `x` alone.
public struct SQLOrdering: Sendable {
  /// Where NULLs go, when said.
  public enum Nulls: Sendable {
    /// `NULLS FIRST`.
    case first
    /// `NULLS LAST`.
    case last
  }
  /// What is ordered by.
  public var expression: SQLExpression
  /// Ascending, descending, or unsaid (nil: the database's default, ascending).
  public var ascending: Bool?
  /// Where NULLs go (nil: unsaid).
  public var nulls: Nulls?

  /// A key ordered by `expression`.
  public init(_ expression: SQLExpression, ascending: Bool? = nil, nulls: Nulls? = nil) {
    self.expression = expression
    self.ascending = ascending
    self.nulls = nulls
  }
}

/// A `SELECT` statement as a value.
public struct SQLSelect: Sendable {
  /// The result columns.
  public var columns: [SQLExpression]
  /// What it reads from (nil: nothing, as in `SELECT (SELECT …), (SELECT …)`; then joins,
  /// conditions, order, window and row lock are not written either).
  public var from: SQLSource?
  /// Left joins after `from`.
  public var joins: [SQLJoin] = []
  /// Conditions, all of which must hold (`WHERE a AND b`).
  public var conditions: [SQLExpression] = []
  /// What rows are grouped by (`GROUP BY a, b`).
  public var groupBy: [SQLExpression] = []
  /// The order of the rows.
  public var orderBy: [SQLOrdering] = []
  /// `LIMIT`, bound.
  public var limit: DatabaseValue?
  /// `OFFSET`, bound.
  public var offset: DatabaseValue?
  /// Whether the rows read are locked until the transaction ends (the dialect's `rowLock`).
  public var locksRows = false

  /// A `SELECT` of `columns` from `from`.
  public init(_ columns: [SQLExpression], from: SQLSource?) {
    self.columns = columns
    self.from = from
  }
}

/// An `INSERT` statement as a value: `DEFAULT VALUES` when no column is given.
public struct SQLInsert: Sendable {
  /// The table.
  public var table: SQLExpression
  /// The columns' names and their values, bound.
  public var values: [(column: String, value: DatabaseValue)]
  /// The columns the statement returns (`RETURNING`), if any.
  public var returning: [String] = []

  /// An insert of `values` into `table`.
  public init(into table: SQLExpression, values: [(column: String, value: DatabaseValue)]) {
    self.table = table
    self.values = values
  }
}

/// An `UPDATE` statement as a value.
public struct SQLUpdate: Sendable {
  /// The table.
  public var table: SQLExpression
  /// The columns set and their new values, bound.
  public var assignments: [(column: String, value: DatabaseValue)]
  /// Conditions, all of which must hold.
  public var conditions: [SQLExpression]

  /// An update of `table` setting `assignments` where all `conditions` hold.
  public init(
    _ table: SQLExpression, set assignments: [(column: String, value: DatabaseValue)],
    where conditions: [SQLExpression]
  ) {
    self.table = table
    self.assignments = assignments
    self.conditions = conditions
  }
}

/// A `DELETE` statement as a value.
public struct SQLDelete: Sendable {
  /// The table.
  public var table: SQLExpression
  /// Conditions, all of which must hold.
  public var conditions: [SQLExpression]

  /// A delete from `table` where all `conditions` hold.
  public init(from table: SQLExpression, where conditions: [SQLExpression]) {
    self.table = table
    self.conditions = conditions
  }
}

extension SQLInsert {
  /// An insert of `values` into `entity`'s table, returning the columns of `returning`.
  public init(
    into entity: Entity, values: [(Attribute, DatabaseValue)], returning: [Attribute] = []
  ) {
    self.init(
      into: .table(entity.externalName, schema: entity.schema),
      values: values.map { (column: $0.0.columnName, value: $0.1) })
    self.returning = returning.map(\.columnName)
  }
}

/// A step of a transaction at a nesting depth: at depth 0 the transaction itself, deeper a
/// savepoint of D2S's own (`d2s_1`, `d2s_2`, …).
public enum SQLTransactionStep: Sendable {
  /// Starts the transaction, or sets the savepoint.
  case begin
  /// Commits the transaction, or releases the savepoint.
  case commit
  /// Rolls the transaction back, or rolls back to the savepoint and releases it.
  case rollback
}
