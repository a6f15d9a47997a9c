import EnvKeys
import Qualifiers

/// Orderings and keyset conditions. A list is ordered by its sort orderings, then by its
/// primary key, so every row has a distinct position; NULLs sort first. A keyset page starts
/// after (or at, or before) a row's position with a condition written out in full
/// (`k > ? OR (k = ? AND pk > ?)`), which is right for NULLs and mixed directions where a
/// row-value comparison is not.
extension SQLBuilder {
  /// One expression a fetch is ordered by.
  struct OrderKey {
    /// The SQL expression (`t0."title"`, `lower(t1."last_name")`).
    var expression: SQLExpression
    var ascending: Bool
    /// Whether it can be NULL (a nullable column, or any column across a LEFT JOIN).
    var nullable: Bool
    /// Whether NULLs come first (always so, except when the order is reversed).
    var nullsFirst = true

    /// The same key, read backwards.
    var reversed: OrderKey {
      OrderKey(
        expression: expression, ascending: !ascending, nullable: nullable,
        nullsFirst: !nullsFirst)
    }

    /// `expr ASC NULLS FIRST`, or plain `expr ASC` when it cannot be NULL, so that an
    /// ordinary index serves it.
    var ordering: SQLOrdering {
      SQLOrdering(
        expression, ascending: ascending,
        nulls: nullable ? (nullsFirst ? .first : .last) : nil)
    }
  }

  /// The keys `specification` is ordered by: its orderings, then the primary key.
  mutating func orderKeys(_ specification: FetchSpecification) throws -> [OrderKey] {
    var keys: [OrderKey] = []
    for ordering in specification.sortOrderings {
      let path = KVCPath(ordering.keyPath)
      let (column, attribute) = try self.column(path)
      guard attribute.hasEquality else {
        throw DatabaseError(
          .unsupported,
          "\(attribute.name) is a column of type \(attribute.externalType): its values cannot be sorted or counted"
        )
      }
      let expression: SQLExpression =
        ordering.caseInsensitive && attribute.valueType == .string
        ? .function(.lower, [column]) : column
      keys.append(
        OrderKey(
          expression: expression, ascending: ordering.ascending,
          nullable: attribute.allowsNull || path.components.count > 1))
    }
    for attribute in entity.primaryKeyAttributes {
      keys.append(
        OrderKey(
          expression: .column(attribute.columnName, of: rootAlias), ascending: true,
          nullable: false))
    }
    return keys
  }

  /// The columns that read a row's position: the keys' expressions.
  func positionColumns(_ keys: [OrderKey]) -> [SQLExpression] { keys.map(\.expression) }

  /// How a position's columns are decoded: as the values they hold (nil), or as their text
  /// verbatim when the dialect binds positions back as text, so that the server parses them
  /// as the column's type again, exactly.
  var positionDecoding: Attribute? {
    dialect.readsPositionsAsText ? Attribute.positionText : nil
  }

  /// The condition selecting the rows after (or from) `position` in the order of `keys`:
  /// `k1 > ? OR (k1 = ? AND k2 > ?) …`, with a leading range on the first key when one
  /// applies, so that an index on it is used.
  mutating func keysetCondition(
    _ keys: [OrderKey], _ position: [DatabaseValue], inclusive: Bool
  ) throws -> SQLExpression {
    guard !keys.isEmpty, keys.count == position.count else {
      throw DatabaseError(
        .invalidValue,
        "a list position needs \(keys.count) values (orderings and primary key), not \(position.count)"
      )
    }
    // Values are bound in the order they appear in the text (SQLite's `?` are positional).
    let range = keys.first.flatMap { key in position.first.flatMap { atOrAfter(key, $0) } }
    var alternatives: [SQLExpression] = []
    for index in keys.indices {
      let orEqual = index == keys.count - 1 && inclusive
      // Nothing comes after a NULL that sorts last.
      if position[index].isNull, !orEqual, !keys[index].nullsFirst { continue }
      let equalities = (0..<index).map { equal(keys[$0], position[$0]) }
      let after = after(keys[index], position[index], orEqual: orEqual)
      alternatives.append(.parenthesized(.all(equalities + [after])))
    }
    let any: SQLExpression = alternatives.isEmpty ? .constant(false) : .any(alternatives)
    guard let range else { return .parenthesized(any) }
    return .parenthesized(.all([range, .parenthesized(any)]))
  }

  /// `key` comes after `value` (or equals it, with `orEqual`) in the key's order (never
  /// asked after a NULL that sorts last, which nothing follows).
  private func after(_ key: OrderKey, _ value: DatabaseValue, orEqual: Bool) -> SQLExpression {
    let e = key.expression
    if value.isNull {
      if orEqual { return key.nullsFirst ? .constant(true) : .isNull(e) }
      return .isNotNull(e)
    }
    let op: SQLOperator =
      key.ascending
      ? (orEqual ? .greaterThanOrEqual : .greaterThan) : (orEqual ? .lessThanOrEqual : .lessThan)
    let comparison = SQLExpression.compare(e, op, .bind(value))
    return key.nullable && !key.nullsFirst
      ? .parenthesized(.any([comparison, .isNull(e)])) : comparison
  }

  /// `key` equals `value`.
  private func equal(_ key: OrderKey, _ value: DatabaseValue) -> SQLExpression {
    value.isNull ? .isNull(key.expression) : .compare(key.expression, .equal, .bind(value))
  }

  /// A range every row at or after `value` is in, on the first key (`k >= ?`), when the rows
  /// after it exclude NULLs; nil otherwise.
  private func atOrAfter(_ key: OrderKey, _ value: DatabaseValue) -> SQLExpression? {
    guard !value.isNull, key.nullsFirst || !key.nullable else { return nil }
    return .compare(
      key.expression, key.ascending ? .greaterThanOrEqual : .lessThanOrEqual, .bind(value))
  }
}

extension SQLBuilder {
  /// One step of a count that can stop part way: how many of the next `limit` rows
  /// `specification` selects, in primary key order after `after`, and the last key among
  /// them (`SELECT count(*), max(k) FROM (SELECT pk AS k … LIMIT ?)`). Only for a primary key
  /// of one column.
  mutating func countStep(_ specification: FetchSpecification, after: DatabaseValue?, limit: Int)
    throws -> SQLStatement
  {
    let (column, qualified) = try countConditions(specification)
    var conditions = qualified
    if let after { conditions.append(.compare(column, .greaterThan, .bind(after))) }
    var inner = select([.named(column, as: "k")])
    inner.conditions = conditions
    inner.orderBy = [SQLOrdering(column)]
    inner.limit = .int(limit)
    return dialect.statement(
      SQLSelect(
        [.function(.count, [.star]), .function(.max, [.column("k", of: "s")])],
        from: SQLSource(.subquery(inner), alias: "s")))
  }

  /// One step of a count along an integer primary key: how many rows `specification`
  /// selects whose key is above `after` and at most `through` (either bound left out when
  /// nil). A plain `count(*)` over a key range, which SQLite reads as a range of its table.
  mutating func countRange(_ specification: FetchSpecification, after: Int?, through: Int?)
    throws -> SQLStatement
  {
    let (column, qualified) = try countConditions(specification)
    var conditions = qualified
    if let after { conditions.append(.compare(column, .greaterThan, .bind(.int(after)))) }
    if let through {
      conditions.append(.compare(column, .lessThanOrEqual, .bind(.int(through))))
    }
    var statement = select([.function(.count, [.star])])
    statement.conditions = conditions
    return dialect.statement(statement)
  }

  /// A count step's key column (a primary key of one column, or an error) and the
  /// specification's qualifier as its first condition.
  private mutating func countConditions(_ specification: FetchSpecification) throws -> (
    SQLExpression, [SQLExpression]
  ) {
    guard let key = entity.primaryKeyAttributes.first, entity.primaryKeyAttributes.count == 1
    else {
      throw DatabaseError(.unsupported, "\(entity.name) has no primary key of one column")
    }
    return (.column(key.columnName, of: rootAlias), try conditions(specification))
  }

  /// The whole table's least and greatest key, each in its own subquery so that both are
  /// one look-up in the key's index (SQLite reads the whole table for `min(k), max(k)`).
  func keyRange() throws -> SQLStatement {
    guard let key = entity.primaryKeyAttributes.first else {
      throw DatabaseError(.unsupported, "\(entity.name) has no primary key")
    }
    let table = SQLSource(.table(entity.externalName, schema: entity.schema))
    func extreme(_ function: SQLFunction) -> SQLExpression {
      .subquery(SQLSelect([.function(function, [.identifier(key.columnName)])], from: table))
    }
    return dialect.statement(SQLSelect([extreme(.min), extreme(.max)], from: nil))
  }
}
