import EnvKeys
import Qualifiers

/// Builds SELECT statements for fetch specifications: joins for key paths across to-one
/// relationships, `EXISTS` subqueries for comparisons across to-many ones (flattened
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

  private(set) var bindings: [DatabaseValue] = []
  private var subqueries = 0
  private var joinAliases: [String: (alias: String, entity: Entity)] = [:]
  private var joinClauses: [String] = []

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

  var fromClause: String {
    ([dialect.quote(table: entity.externalName, schema: entity.schema) + " " + rootAlias]
      + joinClauses)
      .joined(separator: " ")
  }

  mutating func bind(_ value: DatabaseValue) -> String {
    bindings.append(value)
    return dialect.placeholder(bindings.count)
  }

  /// The alias and entity reached by following to-one `relationships` from the root.
  mutating func alias(for relationships: ArraySlice<String>) throws -> (String, Entity) {
    var current = entity
    var alias = rootAlias
    var path = ""
    for name in relationships {
      guard let relationship = current.relationship(named: name) else {
        throw DatabaseError(.invalidValue, "\(current.name) has no relationship '\(name)'")
      }
      guard !relationship.isToMany else {
        throw DatabaseError(
          .unsupported,
          "key path crosses the to-many relationship \(current.name).\(name); only to-one relationships can be followed here"
        )
      }
      guard let destination = model.entity(named: relationship.destinationName) else {
        throw DatabaseError(.invalidValue, "no entity \(relationship.destinationName)")
      }
      path += "." + name
      if let known = joinAliases[path] {
        (alias, current) = known
        continue
      }
      let next = "\(aliasPrefix)\(joinAliases.count + 1)"
      let on = relationship.joins.map { join -> String in
        let source = current.attribute(named: join.source)?.columnName ?? join.source
        let target = destination.attribute(named: join.destination)?.columnName ?? join.destination
        return "\(next).\(dialect.quote(target)) = \(alias).\(dialect.quote(source))"
      }.joined(separator: " AND ")
      joinClauses.append(
        "LEFT JOIN \(dialect.quote(table: destination.externalName, schema: destination.schema)) \(next) ON \(on)"
      )
      joinAliases[path] = (next, destination)
      alias = next
      current = destination
    }
    return (alias, current)
  }

  /// The column expression and attribute for a property key path.
  mutating func column(_ path: KVCPath) throws -> (String, Attribute) {
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
    return ("\(alias).\(dialect.quote(attribute.columnName))", attribute)
  }

  // MARK: - Qualifiers

  mutating func sql(for qualifier: Qualifier) throws -> String {
    switch qualifier {
    case .constant(let value):
      return value ? "1 = 1" : "1 = 0"
    case .and(let parts):
      return "(" + (try parts.map { try sql(for: $0) }).joined(separator: " AND ") + ")"
    case .or(let parts):
      return "(" + (try parts.map { try sql(for: $0) }).joined(separator: " OR ") + ")"
    case .not(let inner):
      return "NOT (" + (try sql(for: inner)) + ")"
    case .comparison(let path, let op, let literal):
      let expanded = try ToManyPath(path, from: entity, in: model)
      if let crossing = expanded.crossing {
        return try exists(crossing, .comparison(KVCPath(components: crossing.rest), op, literal))
      }
      let (column, attribute) = try self.column(path)
      return try comparison(column, attribute, op, literal)
    case .keyComparison(let lhsPath, let op, let rhsPath):
      let (lhs, _) = try column(lhsPath)
      let (rhs, _) = try column(rhsPath)
      switch op {
      case .equal: return "(\(lhs) \(dialect.nullSafeEqual) \(rhs))"
      case .notEqual: return "(\(lhs) \(dialect.nullSafeNotEqual) \(rhs))"
      case .lessThan: return "COALESCE(\(lhs) < \(rhs), \(lhs) IS NULL AND \(rhs) IS NOT NULL)"
      case .lessThanOrEqual: return "COALESCE(\(lhs) <= \(rhs), \(lhs) IS NULL)"
      case .greaterThan: return "COALESCE(\(lhs) > \(rhs), \(rhs) IS NULL AND \(lhs) IS NOT NULL)"
      case .greaterThanOrEqual: return "COALESCE(\(lhs) >= \(rhs), \(rhs) IS NULL)"
      case .like, .caseInsensitiveLike, .in:
        throw DatabaseError(
          .unsupported,
          "'\(op.rawValue)' between two key paths cannot be fetched; compare with a value")
      }
    }
  }

  /// `EXISTS (SELECT 1 FROM destination … WHERE joined AND inner)`: `inner` holds for some
  /// object across the to-many `crossing.relationship`.
  private mutating func exists(_ crossing: ToManyPath.Crossing, _ inner: Qualifier) throws -> String
  {
    let (outer, owner) = try alias(for: crossing.toOnes[...])
    subqueries += 1
    var sub = SQLBuilder(
      dialect: dialect, model: model, entity: crossing.destination,
      aliasPrefix: "\(aliasPrefix)\(subqueries)s", encode: encode)
    sub.bindings = bindings
    let condition = try sub.sql(for: inner)
    bindings = sub.bindings
    let joined = crossing.relationship.joins.map { join -> String in
      let source = owner.attribute(named: join.source)?.columnName ?? join.source
      let target =
        crossing.destination.attribute(named: join.destination)?.columnName ?? join.destination
      return "\(sub.rootAlias).\(dialect.quote(target)) = \(outer).\(dialect.quote(source))"
    }
    return "EXISTS (SELECT 1 FROM \(sub.fromClause) WHERE "
      + (joined + [condition]).joined(separator: " AND ") + ")"
  }

  private mutating func comparison(
    _ column: String, _ attribute: Attribute, _ op: ComparisonOperator, _ literal: Literal
  ) throws -> String {
    switch op {
    case .like, .caseInsensitiveLike:
      guard case .string(let pattern) = literal else {
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
      let text =
        attribute.valueType == .string && !attribute.needsTextCast
        ? column : dialect.castToText(column)
      let placeholder = bind(.string(dialect.translateLike(pattern)))
      return
        "(\(column) IS NOT NULL AND \(dialect.like(text, placeholder, op == .caseInsensitiveLike)))"
    case .in:
      guard case .list(let items) = literal else {
        throw DatabaseError(.invalidValue, "'in' needs a list")
      }
      let values = try items.map { try DatabaseValue.coerce($0, to: attribute) }
      let nonNull = values.filter { !$0.isNull }
      var parts: [String] = []
      if !nonNull.isEmpty {
        let placeholders = nonNull.map { bind(encode($0, attribute)) }.joined(separator: ", ")
        parts.append("(\(column) IS NOT NULL AND \(column) IN (\(placeholders)))")
      }
      if nonNull.count != values.count { parts.append("\(column) IS NULL") }
      return parts.isEmpty ? "1 = 0" : "(" + parts.joined(separator: " OR ") + ")"
    default:
      let value = try DatabaseValue.coerce(literal, to: attribute)
      if value.isNull {
        switch op {
        case .equal, .lessThanOrEqual: return "\(column) IS NULL"
        case .notEqual, .greaterThan: return "\(column) IS NOT NULL"
        case .lessThan: return "1 = 0"
        default: return "1 = 1"  // >= nil: everything
        }
      }
      let placeholder = bind(encode(value, attribute))
      switch op {
      case .equal: return "(\(column) IS NOT NULL AND \(column) = \(placeholder))"
      case .notEqual: return "(\(column) IS NULL OR \(column) <> \(placeholder))"
      case .lessThan: return "(\(column) IS NULL OR \(column) < \(placeholder))"
      case .lessThanOrEqual: return "(\(column) IS NULL OR \(column) <= \(placeholder))"
      case .greaterThan: return "(\(column) IS NOT NULL AND \(column) > \(placeholder))"
      default: return "(\(column) IS NOT NULL AND \(column) >= \(placeholder))"
      }
    }
  }

  // MARK: - Statements

  /// `SELECT` of the entity's columns (or `count(*)`) for `specification`, with
  /// `extraColumns` after them and, with `positions`, the columns of each row's position
  /// (see ``positionColumns(_:)``) last.
  mutating func select(
    _ specification: FetchSpecification, count: Bool = false, attributes: [Attribute]? = nil,
    extraColumns: [String] = [], positions: Bool = false
  ) throws -> SQLStatement {
    var conditions: [String] = []
    if let qualifier = specification.qualifier { conditions.append(try sql(for: qualifier)) }
    var orderClause = ""
    var columns =
      count
      ? ["count(*)"]
      : (attributes ?? entity.attributes).map { "\(rootAlias).\(dialect.quote($0.columnName))" }
        + extraColumns
    if !count {
      var keys = try orderKeys(specification)
      if positions { columns += positionColumns(keys) }
      if let keyset = specification.keyset {
        if case .before = keyset { keys = keys.map(\.reversed) }
        let inclusive = if case .from = keyset { true } else { false }
        conditions.append(try keysetCondition(keys, keyset.position, inclusive: inclusive))
      }
      if !keys.isEmpty { orderClause = " ORDER BY " + keys.map(\.sql).joined(separator: ", ") }
    }
    var window = ""
    if !count {
      if let limit = specification.limit { window += " LIMIT " + bind(.int(limit)) }
      if let offset = specification.offset, specification.keyset == nil {
        if specification.limit == nil { window += " LIMIT " + bind(dialect.noLimit) }
        window += " OFFSET " + bind(.int(offset))
      }
    }
    let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return SQLStatement(
      "SELECT \(columns.joined(separator: ", ")) FROM \(fromClause)\(whereClause)\(orderClause)\(window)",
      bindings)
  }
}
