import EnvKeys

/// Writes SQL values (``SQLExpression``, ``SQLSelect``, ``SQLInsert``, ``SQLUpdate``,
/// ``SQLDelete``) as text in one database's dialect: the one place statement keywords are
/// spelled. Names are quoted by the dialect, and every value is bound, numbered in the order
/// it appears in the text (SQLite's `?` are positional).
public struct SQLSerializer {
  /// How the database spells placeholders, quoting and the operators that differ.
  public let dialect: SQLDialect
  /// The text written so far.
  public private(set) var sql = ""
  /// The values bound so far, in the order of their placeholders.
  public private(set) var bindings: [DatabaseValue] = []
  /// The outermost `SELECT`'s bound `LIMIT`, when it has one (``SQLStatement/rowBound``).
  public private(set) var rowBound: Int?
  /// How many `SELECT`s are being written, one inside another (1: the outermost).
  private var selectDepth = 0
  /// Whether a `SELECT` was written: the statement's rows are the first one's.
  private var wroteSelect = false

  /// A serialiser writing in `dialect`.
  public init(dialect: SQLDialect) {
    self.dialect = dialect
  }

  /// The statement written: its text and bound values.
  public var statement: SQLStatement {
    var statement = SQLStatement(raw: sql, bindings)
    statement.rowBound = rowBound
    return statement
  }

  private mutating func bind(_ value: DatabaseValue) -> String {
    bindings.append(value)
    return dialect.placeholder(bindings.count)
  }

  /// `items` written one after another, `separator` between them.
  private mutating func write<T>(
    _ items: [T], separator: String, _ write: (inout SQLSerializer, T) -> Void
  ) {
    for (index, item) in items.enumerated() {
      if index > 0 { sql += separator }
      write(&self, item)
    }
  }

  /// `parts` joined by `separator` (`AND`, `OR`); past ``balancedAbove`` parts, as two
  /// parenthesized halves, each written so in turn: SQLite's parser nests a chain of N `AND`s
  /// N deep, and refuses one deeper than its expression depth limit (1,000).
  private mutating func writeBalanced(
    _ parts: ArraySlice<SQLExpression>, separator: String,
    _ write: (inout SQLSerializer, SQLExpression) -> Void
  ) {
    guard parts.count > Self.balancedAbove else {
      self.write(Array(parts), separator: separator, write)
      return
    }
    let middle = parts.startIndex + parts.count / 2
    sql += "("
    writeBalanced(parts[..<middle], separator: separator, write)
    sql += ")" + separator + "("
    writeBalanced(parts[middle...], separator: separator, write)
    sql += ")"
  }

  /// The most parts of an `AND` or `OR` written as one chain.
  static let balancedAbove = 32

  /// The text `expression` writes, with its values bound here, for a dialect's spelling that
  /// wraps it.
  private mutating func fragment(_ expression: SQLExpression) -> String {
    let before = sql
    sql = ""
    write(expression)
    let written = sql
    sql = before
    return written
  }

  /// `opening(…)`, what `body` writes in the parentheses.
  private mutating func enclosed(_ opening: String, _ body: (inout SQLSerializer) -> Void) {
    sql += opening + "("
    body(&self)
    sql += ")"
  }

  // MARK: - Expressions

  /// Writes `expression`.
  public mutating func write(_ expression: SQLExpression) {
    switch expression {
    case .identifier(let name): sql += dialect.quote(name)
    case .column(let name, let alias): sql += self.alias(alias) + "." + dialect.quote(name)
    case .table(let name, let schema): sql += dialect.quote(table: name, schema: schema)
    case .bind(let value): sql += bind(value)
    case .constant(let value): sql += value ? "1 = 1" : "1 = 0"
    case .star: sql += "*"
    case .one: sql += "1"
    case .rowID: sql += "rowid"
    case .rowIDOf(let name): sql += alias(name) + ".rowid"
    case .function(let function, let arguments):
      sql += function.rawValue + "("
      write(arguments, separator: ", ") { $0.write($1) }
      sql += ")"
    case .compare(let lhs, let op, let rhs):
      write(lhs)
      sql += " " + spelling(op) + " "
      write(rhs)
    case .isNull(let inner):
      write(inner)
      sql += " IS NULL"
    case .isNotNull(let inner):
      write(inner)
      sql += " IS NOT NULL"
    case .all(let parts): writeBalanced(parts[...], separator: " AND ") { $0.writeConjunct($1) }
    case .any(let parts): writeBalanced(parts[...], separator: " OR ") { $0.write($1) }
    case .parenthesized(let inner): enclosed("") { $0.write(inner) }
    case .not(let inner): enclosed("NOT ") { $0.write(inner) }
    case .list(let items): enclosed("") { $0.write(items, separator: ", ") { $0.write($1) } }
    case .castToText(let inner): sql += dialect.castToText(fragment(inner))
    case .like(let lhs, let pattern, let caseInsensitive):
      let text = fragment(lhs)
      sql += dialect.like(text, bind(.string(pattern)), caseInsensitive)
    case .exists(let select): enclosed("EXISTS ") { $0.write(select) }
    case .subquery(let select): enclosed("") { $0.write(select) }
    case .named(let inner, let name):
      write(inner)
      sql += " AS " + alias(name)
    }
  }

  private func spelling(_ op: SQLOperator) -> String {
    switch op {
    case .equal: "="
    case .notEqual: "<>"
    case .lessThan: "<"
    case .lessThanOrEqual: "<="
    case .greaterThan: ">"
    case .greaterThanOrEqual: ">="
    case .nullSafeEqual: dialect.nullSafeEqual
    case .nullSafeNotEqual: dialect.nullSafeNotEqual
    case .in: "IN"
    case .match: "MATCH"
    case .textSearch: "@@"
    }
  }

  private mutating func write(_ source: SQLSource) {
    write(source.source)
    if let alias = source.alias { sql += " " + self.alias(alias) }
  }

  /// An alias as it is when it is letters and digits (the builder's own `t0`, `s`, `k`),
  /// else quoted: no name reaches the text unquoted.
  private func alias(_ name: String) -> String {
    let isLetter = { (byte: UInt8) in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
    let plain =
      name.utf8.first.map(isLetter) == true
      && name.utf8.allSatisfy { byte in
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      }
    return plain ? name : dialect.quote(name)
  }

  /// A part of a conjunction (`AND`, `WHERE`): a disjunction in parentheses, so that
  /// `a OR b` never binds looser than the conditions around it.
  private mutating func writeConjunct(_ part: SQLExpression) {
    if case .any = part {
      enclosed("") { $0.write(part) }
    } else {
      write(part)
    }
  }

  private mutating func write(_ ordering: SQLOrdering) {
    write(ordering.expression)
    if let ascending = ordering.ascending { sql += ascending ? " ASC" : " DESC" }
    switch ordering.nulls {
    case .first: sql += " NULLS FIRST"
    case .last: sql += " NULLS LAST"
    case nil: break
    }
  }

  /// ` WHERE a AND b`; ` WHERE 1 = 0` when `required` and there are none, so that a change
  /// meant for some rows never reaches all of them.
  private mutating func writeWhere(_ conditions: [SQLExpression], required: Bool) {
    guard !conditions.isEmpty else {
      if required { sql += " WHERE 1 = 0" }
      return
    }
    sql += " WHERE "
    write(conditions, separator: " AND ") { $0.writeConjunct($1) }
  }

  // MARK: - Statements

  /// Writes a `SELECT`.
  public mutating func write(_ select: SQLSelect) {
    // Only a statement that is a `SELECT` itself is bounded by its `LIMIT` (not a subquery's,
    // nor an `INSERT … SELECT`'s).
    let isOutermost = selectDepth == 0 && !wroteSelect && sql.isEmpty
    selectDepth += 1
    wroteSelect = true
    defer { selectDepth -= 1 }
    sql += "SELECT "
    if select.columns.isEmpty {
      // An entity with no column that can be read (a view SQLite can no longer compile): the
      // database says why, not a syntax error.
      sql += "NULL"
    }
    write(select.columns, separator: ", ") { $0.write($1) }
    if let from = select.from {
      sql += " FROM "
      write(from)
      for join in select.joins {
        sql += " LEFT JOIN "
        write(join.source)
        sql += " ON "
        writeConjunct(join.on)
      }
    }
    writeWhere(select.conditions, required: false)
    if !select.groupBy.isEmpty {
      sql += " GROUP BY "
      write(select.groupBy, separator: ", ") { $0.write($1) }
    }
    if !select.orderBy.isEmpty {
      sql += " ORDER BY "
      write(select.orderBy, separator: ", ") { $0.write($1) }
    }
    if let limit = select.limit {
      if isOutermost, case .int(let bound) = limit, bound >= 0 { rowBound = bound }
      if dialect.writesLimitsAsNumbers, case .int(let number) = limit {
        sql += " LIMIT \(number)"
      } else {
        sql += " LIMIT " + bind(limit)
      }
    }
    if let offset = select.offset { sql += " OFFSET " + bind(offset) }
    if select.locksRows { sql += dialect.rowLock }
  }

  /// Writes an `INSERT` (`DEFAULT VALUES` without columns), with its `RETURNING` columns.
  public mutating func write(_ insert: SQLInsert) {
    sql += "INSERT INTO "
    write(insert.table)
    if insert.values.isEmpty {
      sql += " DEFAULT VALUES"
    } else {
      sql += " ("
      write(insert.values, separator: ", ") { $0.sql += $0.dialect.quote($1.column) }
      sql += ") VALUES ("
      write(insert.values, separator: ", ") { $0.sql += $0.bind($1.value) }
      sql += ")"
    }
    if !insert.returning.isEmpty {
      sql += " RETURNING "
      write(insert.returning, separator: ", ") { $0.sql += $0.dialect.quote($1) }
    }
  }

  /// Writes an `UPDATE`; with no condition it changes no row.
  public mutating func write(_ update: SQLUpdate) {
    sql += "UPDATE "
    write(update.table)
    sql += " SET "
    write(update.assignments, separator: ", ") {
      $0.sql += $0.dialect.quote($1.column) + " = " + $0.bind($1.value)
    }
    writeWhere(update.conditions, required: true)
  }

  /// Writes a `DELETE`; with no condition it deletes no row.
  public mutating func write(_ delete: SQLDelete) {
    sql += "DELETE FROM "
    write(delete.table)
    writeWhere(delete.conditions, required: true)
  }
}

extension SQLDialect {
  /// The text of `step` at nesting `depth` (0: the transaction itself).
  public func text(_ step: SQLTransactionStep, depth: Int) -> String {
    let savepoint = "d2s_\(depth)"
    switch (step, depth) {
    case (.begin, 0): return beginTransaction
    case (.begin, _): return "SAVEPOINT " + savepoint
    case (.commit, 0): return "COMMIT"
    case (.commit, _): return "RELEASE SAVEPOINT " + savepoint
    case (.rollback, 0): return "ROLLBACK"
    case (.rollback, _):
      return "ROLLBACK TO SAVEPOINT " + savepoint + "; RELEASE SAVEPOINT " + savepoint
    }
  }

  /// `query` as a statement in this dialect: its text and bound values.
  public func statement(_ query: some SQLQuery) -> SQLStatement {
    var serializer = SQLSerializer(dialect: self)
    query.write(to: &serializer)
    return serializer.statement
  }
}

/// A statement value the serialiser writes: ``SQLSelect``, ``SQLInsert``, ``SQLUpdate``,
/// ``SQLDelete``.
public protocol SQLQuery: Sendable {
  /// Writes the statement with `serializer`.
  func write(to serializer: inout SQLSerializer)
}

extension SQLSelect: SQLQuery {
  /// Writes the `SELECT`.
  public func write(to serializer: inout SQLSerializer) { serializer.write(self) }
}

extension SQLInsert: SQLQuery {
  /// Writes the `INSERT`.
  public func write(to serializer: inout SQLSerializer) { serializer.write(self) }
}

extension SQLUpdate: SQLQuery {
  /// Writes the `UPDATE`.
  public func write(to serializer: inout SQLSerializer) { serializer.write(self) }
}

extension SQLDelete: SQLQuery {
  /// Writes the `DELETE`.
  public func write(to serializer: inout SQLSerializer) { serializer.write(self) }
}
