/// What a database adaptor provides: its catalog, statements with bound values, typed values,
/// transactions. SQL is built above it, by ``SQLBuilder`` with the adaptor's ``SQLDialect``.
public protocol DatabaseAdaptor: AnyObject, Sendable {
  /// The database's name for messages and `show` (`sakila`).
  var databaseName: String { get }
  var dialect: SQLDialect { get }
  /// How many statements have run (for tests that count queries).
  var statementCount: Int { get }

  /// Reads tables, views, columns, keys.
  func readCatalog() throws -> Catalog

  /// Runs a query; `row` is called for each row with the values decoded for `columns`
  /// (nil entries: decode by the value's own storage type).
  func query(
    _ statement: SQLStatement, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void) throws

  /// Runs a statement and returns the number of rows it changed.
  @discardableResult
  func execute(_ statement: SQLStatement) throws -> Int

  /// Inserts a row with `values` (already encoded) and returns its primary key values, in key
  /// order (see ``SQLDialect/insert(into:values:)`` for the statement).
  func insert(into entity: Entity, values: [(Attribute, DatabaseValue)]) throws -> [DatabaseValue]

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  func transaction<T>(_ body: () throws -> T) throws -> T

  /// The value as the column stores it, for binding (dates in the column's form, …).
  func encode(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue

  /// Why nothing can be written through this connection (opened read-only, a file this user
  /// cannot write), or nil when it is writable.
  var readOnlyReason: String? { get }
}

extension DatabaseAdaptor {
  /// Adaptors are writable unless they say otherwise.
  public var readOnlyReason: String? { nil }
}
