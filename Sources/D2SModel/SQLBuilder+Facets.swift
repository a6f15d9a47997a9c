import EnvKeys
import Qualifiers

extension SQLBuilder {
  /// The values at `path` among the rows `specification` selects, with how many rows hold
  /// each, the most frequent first (then by value, NULL first), at most `limit` of them:
  /// `SELECT col, count(*) … WHERE … GROUP BY col ORDER BY count(*) DESC, col LIMIT ?`.
  mutating func facet(_ specification: FetchSpecification, path: KVCPath, limit: Int) throws
    -> (SQLStatement, Attribute)
  {
    let (column, attribute) = try self.column(path)
    let conditions = try self.conditions(specification)
    let count = SQLExpression.function(.count, [.star])
    var statement = select([column, count])
    statement.conditions = conditions
    statement.groupBy = [column]
    statement.orderBy = [SQLOrdering(count, ascending: false), SQLOrdering(column, nulls: .first)]
    statement.limit = .int(limit)
    return (dialect.statement(statement), attribute)
  }
}
