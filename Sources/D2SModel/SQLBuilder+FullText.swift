import EnvKeys

extension SQLBuilder {
  /// The conditions of `specification`: its qualifier, and its full-text search through the
  /// entity's index.
  mutating func conditions(_ specification: FetchSpecification) throws -> [SQLExpression] {
    var conditions: [SQLExpression] = []
    if let qualifier = specification.qualifier { conditions.append(try sql(for: qualifier)) }
    if let search = specification.fullText { conditions.append(try fullTextCondition(search)) }
    return conditions
  }

  /// The rows the index matches: `t0.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)`
  /// (SQLite's FTS5), or `t0.v @@ to_tsquery(?)` (a PostgreSQL `tsvector`).
  func fullTextCondition(_ search: FullTextSearch) throws -> SQLExpression {
    switch try index().kind {
    case .fts5(let table):
      var inner = SQLSelect([.rowID], from: SQLSource(.table(table, schema: nil)))
      inner.conditions = [.compare(.identifier(table), .match, .bind(.string(search.fts5Query)))]
      return .compare(.rowIDOf(alias: rootAlias), .in, .subquery(inner))
    case .tsvector(let column):
      guard let query = search.tsQuery else { return .constant(false) }
      let tsQuery = SQLExpression.function(.toTSQuery, [.bind(.string(query))])
      // Words the configuration drops (`the`) leave an empty query, which matches nothing:
      // then the index does not filter (the words are still matched in the columns).
      return .parenthesized(
        .any([
          .compare(.function(.numnode, [tsQuery]), .equal, .bind(.int(0))),
          .compare(.column(column, of: rootAlias), .textSearch, tsQuery),
        ]))
    }
  }

  /// The best matches first: FTS5's `bm25` (lower is better), PostgreSQL's `ts_rank`. An
  /// FTS5 table's ranks are read once, by a join of its matches (`LEFT JOIN (SELECT rowid AS
  /// r, bm25(fts) AS s FROM fts WHERE fts MATCH ?) AS fr ON fr.r = t0.rowid`): a subquery
  /// per row ran the whole search again for each match, a time that grew with the square of
  /// their number (20,000 rows holding a common word took longer than a page may).
  mutating func fullTextRank(_ search: FullTextSearch) throws -> SQLOrdering {
    switch try index().kind {
    case .fts5(let table):
      var inner = SQLSelect(
        [
          .named(.rowID, as: "r"), .named(.function(.bm25, [.identifier(table)]), as: "s"),
        ], from: SQLSource(.table(table, schema: nil)))
      inner.conditions = [.compare(.identifier(table), .match, .bind(.string(search.fts5Query)))]
      joins.append(
        SQLJoin(
          SQLSource(.subquery(inner), alias: Self.rankAlias),
          on: .compare(.column("r", of: Self.rankAlias), .equal, .rowIDOf(alias: rootAlias))))
      return SQLOrdering(.column("s", of: Self.rankAlias), ascending: true)
    case .tsvector(let column):
      let query = SQLExpression.function(.toTSQuery, [.bind(.string(search.tsQuery ?? ""))])
      return SQLOrdering(
        .function(.tsRank, [.column(column, of: rootAlias), query]), ascending: false)
    }
  }

  /// The alias of a search's ranks.
  static let rankAlias = "fr"

  private func index() throws -> FullTextIndex {
    guard let index = entity.fullTextIndex else {
      throw DatabaseError(.unsupported, "\(entity.name) has no full-text index")
    }
    return index
  }
}
