import EnvKeys

/// What a database adaptor provides: its catalog, statements with bound values, typed values,
/// transactions. SQL is built above it, by ``SQLBuilder`` with the adaptor's ``SQLDialect``.
public protocol DatabaseAdaptor: AnyObject, Sendable {
  /// The database's name for messages and `show` (`sakila`).
  var databaseName: String { get }
  var dialect: SQLDialect { get }
  /// How many statements have run (for tests that count queries).
  var statementCount: Int { get }

  /// Reads tables, views, columns, keys: at once, or (``Catalog/details``,
  /// ``Catalog/viewColumns``) the names now and the rest when the model first needs it.
  func readCatalog() throws -> Catalog

  /// Runs a query; `row` is called for each row with the values decoded for `columns`
  /// (nil entries: decode by the value's own storage type).
  func query(
    _ statement: SQLStatement, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void) throws

  /// Runs `statement` as ``query(_:columns:row:)`` does and, when the adaptor can send both
  /// in one round trip (PostgreSQL's pipeline), `following` right behind it, a query of a few
  /// rows (a page's count) that sees what `statement` saw: its rows, decoded by their own
  /// types, read before `statement`'s first row is handed to `row`. Nil when it was not sent,
  /// or failed: the caller then runs it on its own (and meets its error there).
  func query(
    _ statement: SQLStatement, columns: [Attribute?], followedBy following: SQLStatement,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> [[DatabaseValue]]?

  /// Runs `statement` as ``query(_:columns:followedBy:row:)`` does, with `count` behind it: a
  /// count of every row of `entity`'s table (one row, one integer). That count, or nil when
  /// it was not made (the caller then counts on its own). The adaptor may answer with the
  /// count it made before when it can tell that nothing has been committed since (PostgreSQL:
  /// the same snapshot; SQLite: the same version of the file, and no row changed by this
  /// connection) and that the table changes only by commits: never for a view, a foreign or
  /// virtual table, or inside a transaction that writes.
  func query(
    _ statement: SQLStatement, columns: [Attribute?], countingRowsOf entity: Entity,
    with count: SQLStatement, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int?

  /// Whether `statement` sorts every row it selects before it hands out its first (a
  /// whole sort, not one that an index's order lets stop at the LIMIT), so that its tallying
  /// form counts them all (``query(_:columns:tallying:row:)``). False unless the adaptor can
  /// tell.
  func sortsEverySelectedRow(_ statement: SQLStatement) throws -> Bool

  /// Runs `statement` as ``query(_:columns:row:)`` does. With `tallying`, `statement` was
  /// built with a last ORDER BY term of `d2s_tally()` and sorts every row it selects (see
  /// ``sortsEverySelectedRow(_:)``): returns how many rows its sort took in, every row it
  /// selects whatever its LIMIT and OFFSET; nil without, or when the adaptor cannot count.
  func query(
    _ statement: SQLStatement, columns: [Attribute?], tallying: Bool,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> Int?

  /// Runs a statement and returns the number of rows it changed.
  @discardableResult
  func execute(_ statement: SQLStatement) throws -> Int

  /// Inserts a row with `values` (already encoded) and returns its primary key values, in key
  /// order (see ``SQLDialect/insert(into:values:)`` for the statement). ``Database`` inserts
  /// the rows of an entity without a primary key itself, with ``execute(_:)``.
  func insert(into entity: Entity, values: [(Attribute, DatabaseValue)]) throws -> [DatabaseValue]

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  func transaction<T>(_ body: () throws -> T) throws -> T

  /// Runs `body`, which only reads, with its statements in one read transaction where the
  /// database gains by it (SQLite: one lock and one snapshot for a page's statements); a
  /// write inside still works, in a transaction of its own.
  func reading<T>(_ body: () throws -> T) throws -> T

  /// The value as the column stores it, for binding (dates in the column's form, …).
  func encode(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue

  /// Why the column of `attribute` cannot hold `value` as it is (PostgreSQL text holds no NUL
  /// character), or nil when it can. Checked before a value is set or saved, so that a value
  /// is refused with its field's name rather than cut short by the database's client library.
  func refusal(of value: DatabaseValue, for attribute: Attribute) -> String?

  /// Why nothing can be written through this connection (opened read-only, a file this user
  /// cannot write), or nil when it is writable.
  var readOnlyReason: String? { get }

  /// Another connection to the same database, read-only, for work that runs beside this
  /// one's (a list's count on a thread of its own), or nil when there can be none (an
  /// in-memory database).
  func openReader() throws -> (any DatabaseAdaptor)?

  /// The database's own estimate of the rows in `entity`'s table, found without reading
  /// them (statistics, the largest row id), or nil when it has none.
  func estimatedRowCount(of entity: Entity) throws -> Int?

  /// Whether a count on the second connection may run while a statement of this one runs:
  /// true when they share nothing but the disk (SQLite: another core of this process); false
  /// when the server already spreads a large statement over every core (PostgreSQL's parallel
  /// workers), where a count beside it would only slow it down. A list page then starts its
  /// count once its first row has arrived.
  var countsBesideStatements: Bool { get }

  /// Whether a decimal column's values keep its declared scale as stored: PostgreSQL's
  /// `numeric(8,2)` holds `12.50`; SQLite's `DECIMAL(10,2)` holds the number `12.5`.
  var keepsDecimalScale: Bool { get }

  /// Makes `isInterrupted` what stops this connection's running statement (instead of
  /// ``Interruption/isRequested``).
  func interrupt(when isInterrupted: @escaping @Sendable () -> Bool)

  /// The values a text column of `entity` accepts, when the database lists them (a
  /// PostgreSQL enum's labels, a SQLite `CHECK (column IN ('a', …))`), in order; nil when it
  /// lists none. Read when asked (an edit form), never at start.
  func allowedValues(of attribute: Attribute, in entity: Entity) throws -> [String]?

  /// What deleting a row does to the rows of `entity` that refer to it through the foreign
  /// key on `columns` (column names, in key order), or nil when there is no such key.
  func deleteAction(ofForeignKey columns: [String], in entity: Entity) throws -> DeleteAction?

  /// A value that changes whenever what this connection reads may have changed (another
  /// connection's commit, a row this one wrote), found without reading a table; nil when the
  /// adaptor cannot tell, or inside a transaction. What was read at one version may be reused
  /// while the version stays the same.
  func contentVersion() throws -> ContentVersion?
}

/// What ``DatabaseAdaptor/contentVersion()`` returns: equal versions of one connection mean
/// the same contents.
public struct ContentVersion: Hashable, Sendable {
  /// The database's count of commits by other connections, as this connection sees it.
  public var commits: Int64
  /// The rows this connection has changed since it opened.
  public var ownChanges: Int64

  /// A version.
  public init(commits: Int64, ownChanges: Int64) {
    self.commits = commits
    self.ownChanges = ownChanges
  }
}

/// What the database does to referring rows when the row they refer to is deleted.
public enum DeleteAction: String, Sendable {
  /// They are deleted with it (`ON DELETE CASCADE`).
  case cascade = "CASCADE"
  /// Their foreign key becomes NULL (`ON DELETE SET NULL`).
  case setNull = "SET NULL"
  /// Their foreign key becomes its default (`ON DELETE SET DEFAULT`).
  case setDefault = "SET DEFAULT"
  /// The delete is refused while they exist (`RESTRICT`, `NO ACTION`).
  case refuse = "NO ACTION"
  /// The database does not enforce the key: they are left pointing at nothing.
  case unenforced = "NONE"
}

extension DatabaseAdaptor {
  /// Adaptors are writable unless they say otherwise.
  public var readOnlyReason: String? { nil }
  /// Every value can be held unless the adaptor says otherwise.
  public func refusal(of value: DatabaseValue, for attribute: Attribute) -> String? { nil }
  /// One statement at a time unless the adaptor can send two in one round trip.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], followedBy following: SQLStatement,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> [[DatabaseValue]]? {
    try query(statement, columns: columns, row: row)
    return nil
  }
  /// The count behind the rows as ``query(_:columns:followedBy:row:)`` sends it; none kept.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], countingRowsOf entity: Entity,
    with count: SQLStatement, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    try query(statement, columns: columns, followedBy: count, row: row)?.first?.first?.intValue
  }
  /// No sort is known to take in every row unless the adaptor can tell.
  public func sortsEverySelectedRow(_ statement: SQLStatement) throws -> Bool { false }
  /// No tally unless the adaptor defines `d2s_tally()`: the statement runs, nil.
  public func query(
    _ statement: SQLStatement, columns: [Attribute?], tallying: Bool,
    row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    try query(statement, columns: columns, row: row)
    return nil
  }
  /// No second connection unless the adaptor makes one.
  public func openReader() throws -> (any DatabaseAdaptor)? { nil }
  /// No estimates unless the adaptor has them.
  public func estimatedRowCount(of entity: Entity) throws -> Int? { nil }
  /// Counts run beside statements unless the adaptor says otherwise.
  public var countsBesideStatements: Bool { true }
  /// Decimals are numbers without a scale of their own unless the adaptor says otherwise.
  public var keepsDecimalScale: Bool { false }
  /// Only Ctrl-C stops statements unless the adaptor lets others.
  public func interrupt(when isInterrupted: @escaping @Sendable () -> Bool) {}
  /// No list of allowed values unless the adaptor reads one.
  public func allowedValues(of attribute: Attribute, in entity: Entity) throws -> [String]? {
    nil
  }
  /// No delete actions unless the adaptor reads them.
  public func deleteAction(ofForeignKey columns: [String], in entity: Entity) throws
    -> DeleteAction?
  { nil }
  /// No content versions unless the adaptor reads them.
  public func contentVersion() throws -> ContentVersion? { nil }
  /// Statements on their own unless the adaptor gains by a read transaction.
  public func reading<T>(_ body: () throws -> T) throws -> T { try body() }
}
