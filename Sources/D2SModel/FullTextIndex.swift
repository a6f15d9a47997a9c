/// A full-text index over a table's text, found in the catalog: a search uses it (and ranks
/// by it) instead of matching each column's text.
public struct FullTextIndex: Sendable, Equatable {
  /// Where the index is.
  public enum Kind: Sendable, Equatable {
    /// An SQLite FTS5 table whose rows are the table's, by rowid (`CREATE VIRTUAL TABLE
    /// film_fts USING fts5(title, description, content='film')`), as Datasette finds them.
    case fts5(table: String)
    /// A PostgreSQL `tsvector` column with a GIN or GiST index (Sakila's `film.fulltext`).
    case tsvector(column: String)
  }

  /// Where the index is.
  public var kind: Kind
  /// The table's columns it indexes, when the catalog says (an FTS5 table's); nil for a
  /// `tsvector`, whose columns its trigger chooses.
  public var columns: [String]?

  /// An index of `kind` over `columns`.
  public init(_ kind: Kind, columns: [String]?) {
    self.kind = kind
    self.columns = columns
  }

  /// Whether the index holds every one of `columns` (a `tsvector` is taken to).
  public func covers(_ columns: [String]) -> Bool {
    guard let indexed = self.columns else { return true }
    return Set(columns).isSubset(of: indexed)
  }
}
