import EnvKeys
import Qualifiers

/// Builds SELECT statements for fetch specifications: joins for key paths across to-one
/// relationships, `IN` (or `EXISTS`) subqueries for comparisons across to-many ones (flattened
/// many-to-many ones through their link table), qualifiers with every value bound, orderings
/// with NULLs first.
///
/// Comparisons are written two-valued so that SQL agrees with in-memory evaluation: `nil`
/// equals `nil`, sorts before every value, and `NOT` of a comparison with `nil` is true.
struct SQLBuilder {
  let dialect: SQLDialect
  let model: Model
  let entity: Entity
  let encode: (DatabaseValue, Attribute) -> DatabaseValue
  /// What this builder's table aliases start with: `t` (`t0`, `t1`, …) for a statement,
  /// longer for a subquery (`t1s0`), so nested aliases never clash.
  let aliasPrefix: String

  private var subqueries = 0
  private var joinAliases: [String: (alias: String, entity: Entity)] = [:]
  var joins: [SQLJoin] = []

  init(
    dialect: SQLDialect, model: Model, entity: Entity, aliasPrefix: String = "t",
    encode: @escaping (DatabaseValue, Attribute) -> DatabaseValue
  ) {
    self.dialect = dialect
    self.model = model
    self.entity = entity
    self.aliasPrefix = aliasPrefix
    self.encode = encode
  }

  /// The alias of the entity's own table.
  var rootAlias: String { aliasPrefix + "0" }

  /// The entity's own table under ``rootAlias``.
  var source: SQLSource {
    SQLSource(.table(entity.externalName, schema: entity.schema), alias: rootAlias)
  }

  /// A `SELECT` of `columns` from the entity's table and the joins made so far.
  func select(_ columns: [SQLExpression]) -> SQLSelect {
    var select = SQLSelect(columns, from: source)
    select.joins = joins
    return select
  }

  /// The alias and entity reached by following to-one `relationships` from the root.
  mutating func alias(for relationships: ArraySlice<String>) throws -> (String, Entity) {
    let walk = KeyPathWalk(relationships, from: entity, in: model)
    switch walk.stop {
    case .end: break
    case .notARelationship:
      throw DatabaseError(
        .invalidValue, "\(walk.owner.name) has no relationship '\(walk.rest.first ?? "")'")
    case .toMany(let step):
      throw DatabaseError(
        .unsupported,
        "key path crosses the to-many relationship \(step.source.name).\(step.name); only to-one relationships can be followed here"
      )
    case .missingDestination(let name):
      throw DatabaseError(.invalidValue, "no entity \(name)")
    }
    var alias = rootAlias
    var path = ""
    for step in walk.steps {
      path += "." + step.name
      if let known = joinAliases[path] {
        alias = known.alias
        continue
      }
      guard !step.relationship.joins.isEmpty else {
        throw DatabaseError(
          .unsupported, "\(step.source.name).\(step.name) has no join columns to follow")
      }
      let next = "\(aliasPrefix)\(joinAliases.count + 1)"
      let on = step.relationship.joins.map { join -> SQLExpression in
        let source = step.source.attribute(named: join.source)?.columnName ?? join.source
        let target =
          step.destination.attribute(named: join.destination)?.columnName ?? join.destination
        return .compare(.column(target, of: next), .equal, .column(source, of: alias))
      }
      let table = SQLExpression.table(
        step.destination.externalName, schema: step.destination.schema)
      joins.append(SQLJoin(SQLSource(table, alias: next), on: .and(on)))
      joinAliases[path] = (next, step.destination)
      alias = next
    }
    return (alias, walk.owner)
  }

  /// The column expression and attribute for a property key path.
  mutating func column(_ path: KVCPath) throws -> (SQLExpression, Attribute) {
    let (alias, owner) = try self.alias(for: path.components.dropLast())
    let name = path.components.last ?? ""
    guard let attribute = owner.attribute(named: name) else {
      if owner.relationship(named: name) != nil {
        throw DatabaseError(
          .unsupported, "\(path) is a relationship; compare one of its attributes (like \(path).id)"
        )
      }
      throw DatabaseError(.invalidValue, "\(owner.name) has no attribute '\(name)'")
    }
    return (.column(attribute.columnName, of: alias), attribute)
  }

  // MARK: - Qualifiers

  /// `qualifier` as a condition; `negated` when it is under an odd number of `NOT`s.
  mutating func sql(for qualifier: Qualifier, negated: Bool = false) throws -> SQLExpression {
    switch qualifier {
    case .constant(let value):
      return .constant(value)
    case .and(let parts):
      return .parenthesized(.all(try parts.map { try sql(for: $0, negated: negated) }))
    case .or(let parts):
      return .parenthesized(.any(try parts.map { try sql(for: $0, negated: negated) }))
    case .not(let inner):
      return .not(try sql(for: inner, negated: !negated))
    case .comparison(let path, let op, let value):
      let expanded = try ToManyPath(path, from: entity, in: model)
      if let crossing = expanded.crossing {
        // An equality picks few of the destination's rows: their keys are gathered first
        // where the dialect says so, unless negated (`NOT EXISTS` can be an anti-join, `NOT
        // IN` is a list that may be read for every row).
        let few =
          dialect.gathersToManyKeys && !negated && ((op == .equal && !value.isNull) || op == .in)
        return try exists(
          crossing, .comparison(KVCPath(components: crossing.rest), op, value), gathering: few)
      }
      let (column, attribute) = try self.column(path)
      return try comparison(column, attribute, op, value)
    case .keyComparison(let lhsPath, let op, let rhsPath):
      let (lhs, _) = try column(lhsPath)
      let (rhs, _) = try column(rhsPath)
      func coalesce(_ op: SQLOperator, _ otherwise: SQLExpression) -> SQLExpression {
        .function(.coalesce, [.compare(lhs, op, rhs), otherwise])
      }
      switch op {
      case .equal: return .parenthesized(.compare(lhs, .nullSafeEqual, rhs))
      case .notEqual: return .parenthesized(.compare(lhs, .nullSafeNotEqual, rhs))
      case .lessThan: return coalesce(.lessThan, .all([.isNull(lhs), .isNotNull(rhs)]))
      case .lessThanOrEqual: return coalesce(.lessThanOrEqual, .isNull(lhs))
      case .greaterThan: return coalesce(.greaterThan, .all([.isNull(rhs), .isNotNull(lhs)]))
      case .greaterThanOrEqual: return coalesce(.greaterThanOrEqual, .isNull(rhs))
      case .like, .caseInsensitiveLike, .in:
        throw DatabaseError(
          .unsupported,
          "'\(op.rawValue)' between two key paths cannot be fetched; compare with a value")
      }
    }
  }

  /// Whether `inner` holds for some object across the to-many `crossing.relationship`.
  ///
  /// `gathering` (for a test that picks few destinations, an equality, not negated, where the
  /// dialect ``SQLDialect/gathersToManyKeys``), and
  /// joined on one integer column: `(source IS NOT NULL AND source IN (SELECT target FROM
  /// destination … WHERE target IS NOT NULL AND inner))`. SQLite then reads the few
  /// destinations first, through an index when there is one (a film's actors: the film's ten
  /// rows of the link table), where `EXISTS` made it probe the link table once for every row
  /// of the outer table (all the actors). Neither side is ever NULL, so the test is true or
  /// false, never NULL, and `NOT` of it is its complement, as `NOT EXISTS` is.
  ///
  /// Otherwise `EXISTS (SELECT 1 FROM destination … WHERE joined AND inner)`: for a test most
  /// destinations pass, a page of the outer table is found by probing its first rows, with no
  /// need to gather every destination's key first.
  private mutating func exists(
    _ crossing: ToManyPath.Crossing, _ inner: Qualifier, gathering: Bool
  ) throws -> SQLExpression {
    let (outer, owner) = try alias(for: crossing.toOnes[...])
    subqueries += 1
    var sub = SQLBuilder(
      dialect: dialect, model: model, entity: crossing.destination,
      aliasPrefix: "\(aliasPrefix)\(subqueries)s", encode: encode)
    let condition = try sub.sql(for: inner)
    // Each join's destination column (in the subquery) and source column (outside it).
    let columns = crossing.relationship.joins.map { join -> (SQLExpression, SQLExpression) in
      let source = owner.attribute(named: join.source)?.columnName ?? join.source
      let target =
        crossing.destination.attribute(named: join.destination)?.columnName ?? join.destination
      return (.column(target, of: sub.rootAlias), .column(source, of: outer))
    }
    // Integer keys only: `source IN (SELECT target …)` compares text in the source's collation,
    // where `target = source` took the destination's (SQLite: `COLLATE NOCASE` on one side).
    // Their types are looked up only for a statement that may gather.
    if gathering, columns.count == 1, let (target, source) = columns.first,
      crossing.relationship.joins.allSatisfy({
        owner.attribute(named: $0.source)?.valueType == .int
          && crossing.destination.attribute(named: $0.destination)?.valueType == .int
      })
    {
      var select = sub.select([target])
      select.conditions = [.isNotNull(target), condition]
      return .parenthesized(
        .all([.isNotNull(source), .compare(source, .in, .subquery(select))]))
    }
    var select = sub.select([.one])
    select.conditions = columns.map { .compare($0.0, .equal, $0.1) } + [condition]
    return .exists(select)
  }

  private mutating func comparison(
    _ column: SQLExpression, _ attribute: Attribute, _ op: ComparisonOperator,
    _ constant: DatabaseValue
  ) throws -> SQLExpression {
    switch op {
    case .like, .caseInsensitiveLike:
      guard case .string(let pattern) = constant else {
        throw DatabaseError(.invalidValue, "'\(op.rawValue)' needs a quoted pattern")
      }
      // Before any SQL is sent: the database's own error would name an operator, not the column.
      if attribute.valueType == .data || attribute.valueType == .array
        || ["json", "jsonb", "xml"].contains(attribute.externalType.lowercased())
      {
        throw DatabaseError(
          .unsupported,
          "'\(op.rawValue)' does not apply to \(attribute.name), a column of type \(attribute.externalType); compare it with = or in"
        )
      }
      let text: SQLExpression =
        attribute.valueType == .string && !attribute.needsTextCast
        ? column : .castToText(column)
      return .parenthesized(
        .all([
          .isNotNull(column),
          .like(
            text, pattern: dialect.translateLike(pattern),
            caseInsensitive: op == .caseInsensitiveLike),
        ]))
    case _ where !attribute.hasEquality:
      return try textComparison(column, attribute, op, constant)
    case .in:
      guard case .list(let items) = constant else {
        throw DatabaseError(.invalidValue, "'in' needs a list")
      }
      let values = try items.map { try DatabaseValue.coerce($0, to: attribute) }
      let nonNull = values.filter { !$0.isNull }
      var parts: [SQLExpression] = []
      if !nonNull.isEmpty {
        let placeholders = nonNull.map { SQLExpression.bind(encode($0, attribute)) }
        parts.append(
          .parenthesized(.all([.isNotNull(column), .compare(column, .in, .list(placeholders))])))
      }
      if nonNull.count != values.count { parts.append(.isNull(column)) }
      return parts.isEmpty ? .constant(false) : .parenthesized(.any(parts))
    default:
      let value = try DatabaseValue.coerce(constant, to: attribute)
      if value.isNull {
        switch op {
        case .equal, .lessThanOrEqual: return .isNull(column)
        case .notEqual, .greaterThan: return .isNotNull(column)
        case .lessThan: return .constant(false)
        default: return .constant(true)  // >= nil: everything
        }
      }
      let bound = SQLExpression.bind(encode(value, attribute))
      // Two-valued: NULL is less than every value.
      func orNull(_ op: SQLOperator) -> SQLExpression {
        .parenthesized(.any([.isNull(column), .compare(column, op, bound)]))
      }
      func andNotNull(_ op: SQLOperator) -> SQLExpression {
        .parenthesized(.all([.isNotNull(column), .compare(column, op, bound)]))
      }
      switch op {
      case .equal: return andNotNull(.equal)
      case .notEqual: return orNull(.notEqual)
      case .lessThan: return orNull(.lessThan)
      case .lessThanOrEqual: return orNull(.lessThanOrEqual)
      case .greaterThan: return andNotNull(.greaterThan)
      default: return andNotNull(.greaterThanOrEqual)
      }
    }
  }

  /// A comparison with a column whose type has no exact `=` (`json`, `xml`, `point`): `=`,
  /// `!=` and `in` compare its text (`CAST(meta AS text) = '{"a": 1}'`), as the column is
  /// read; an order is refused.
  private mutating func textComparison(
    _ column: SQLExpression, _ attribute: Attribute, _ op: ComparisonOperator,
    _ constant: DatabaseValue
  ) throws -> SQLExpression {
    let text = Attribute(
      name: attribute.name, columnName: attribute.columnName, externalType: "text",
      valueType: .string, allowsNull: attribute.allowsNull)
    switch op {
    case .equal, .notEqual, .in:
      return try comparison(.castToText(column), text, op, constant)
    default:
      throw DatabaseError(
        .unsupported,
        "'\(op.rawValue)' does not apply to \(attribute.name), a column of type \(attribute.externalType); compare it with = or in"
      )
    }
  }

  // MARK: - Statements

  /// `SELECT count(*)` of what `specification` selects (ignoring limit and offset), as a
  /// query to run or to nest as a scalar subquery.
  mutating func countSelect(_ specification: FetchSpecification) throws -> SQLSelect {
    let conditions = try self.conditions(specification)
    var statement = select([.function(.count, [.star])])
    statement.conditions = conditions
    return statement
  }

  /// `SELECT` of the entity's columns (or `count(*)`) for `specification`, with
  /// `extraColumns` after them and, with `positions`, the columns of each row's position
  /// (see ``positionColumns(_:)``) last. With `tallying`, a last ORDER BY term of
  /// `d2s_tally()` counts the rows the statement sorts (SQLite's D2S connections).
  mutating func select(
    _ specification: FetchSpecification, count: Bool = false, attributes: [Attribute]? = nil,
    extraColumns: [SQLExpression] = [], positions: Bool = false, tallying: Bool = false
  ) throws -> SQLStatement {
    if count { return dialect.statement(try countSelect(specification)) }
    var conditions = try self.conditions(specification)
    var columns: [SQLExpression] =
      (attributes ?? entity.attributes).map { .column($0.columnName, of: rootAlias) }
      + extraColumns
    var keys = try orderKeys(specification)
    if positions { columns += positionColumns(keys) }
    if let keyset = specification.keyset {
      if case .before = keyset { keys = keys.map(\.reversed) }
      let inclusive = if case .from = keyset { true } else { false }
      conditions.append(try keysetCondition(keys, keyset.position, inclusive: inclusive))
    }
    var orderBy = keys.map(\.ordering)
    // A search's best matches first, unless the fetch has orderings of its own.
    if let search = specification.fullText, specification.sortOrderings.isEmpty {
      orderBy.insert(try fullTextRank(search), at: 0)
    }
    // Joins are known once the columns, conditions and orderings have named their paths.
    var statement = select(columns)
    statement.conditions = conditions
    statement.orderBy = orderBy
    // Last, so that it changes no order: every row the sort takes in calls it once.
    if tallying { statement.orderBy.append(SQLOrdering(.function(.tally, []))) }
    statement.limit = specification.limit.map { .int($0) }
    if let offset = specification.offset, specification.keyset == nil {
      if specification.limit == nil { statement.limit = dialect.noLimit }
      statement.offset = .int(offset)
    }
    return dialect.statement(statement)
  }
}
