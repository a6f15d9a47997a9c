import EnvKeys
import Qualifiers

/// What to fetch: an entity, a qualifier over its properties and key paths, orderings,
/// a window, and the to-one key paths whose objects to fetch along (batched, never per row).
public struct FetchSpecification: Sendable, Hashable {
  /// The entity whose rows are fetched.
  public var entityName: String
  /// Which rows: nil for all of them.
  public var qualifier: Qualifier?
  /// The order, first ordering first; the primary key breaks ties where rows are paged.
  public var sortOrderings: [SortOrdering]
  /// At most this many rows (a window); nil for all.
  public var limit: Int?
  /// Rows skipped before the window (unused with ``keyset``).
  public var offset: Int?
  /// Property key paths the caller will read (`address.phone`, `inventory.film.title`):
  /// their to-one relationship prefixes are prefetched.
  public var prefetchKeyPaths: [String]
  /// Where a keyset page starts (then ``offset`` is not used): after, at or before a row's
  /// position, the values of the orderings and the primary key at that row.
  public var keyset: KeysetBound?
  /// A search through the entity's full-text index (``Entity/fullTextIndex``): only the rows
  /// it matches, ranked when the fetch has no orderings of its own.
  public var fullText: FullTextSearch?

  /// A fetch of `entityName`'s rows; every other part is optional.
  public init(
    entityName: String, qualifier: Qualifier? = nil, sortOrderings: [SortOrdering] = [],
    limit: Int? = nil,
    offset: Int? = nil, prefetchKeyPaths: [String] = [], keyset: KeysetBound? = nil
  ) {
    self.keyset = keyset
    self.entityName = entityName
    self.qualifier = qualifier
    self.sortOrderings = sortOrderings
    self.limit = limit
    self.offset = offset
    self.prefetchKeyPaths = prefetchKeyPaths
  }
}

/// Where a keyset page starts, by a row's position: the values, for that row, of the
/// fetch's orderings followed by its primary key (as ``Database/fetchRows(_:attributes:paths:positions:readAhead:counting:tallying:row:)``
/// reads them).
public enum KeysetBound: Sendable, Hashable {
  /// The rows after the position, in order.
  case after([DatabaseValue])
  /// The rows from the position on, in order (the row itself included).
  case from([DatabaseValue])
  /// The rows before the position, nearest first (the order reversed).
  case before([DatabaseValue])

  /// The position's values.
  public var position: [DatabaseValue] {
    switch self {
    case .after(let values), .from(let values), .before(let values): values
    }
  }
}

/// One ordering: a key path, a direction, and whether case is ignored.
public struct SortOrdering: Sendable, Hashable, CustomStringConvertible {
  /// The property key path ordered by (`title`, `language.name`).
  public var keyPath: String
  /// Smallest first when true, largest first when false.
  public var ascending: Bool
  /// Whether text is compared ignoring case.
  public var caseInsensitive: Bool
  /// An ordering by `keyPath`, ascending and case-sensitive unless said otherwise.
  public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
    self.keyPath = keyPath
    self.ascending = ascending
    self.caseInsensitive = caseInsensitive
  }
  /// `keyPath asc` or `keyPath desc`.
  public var description: String { "\(keyPath) \(ascending ? "asc" : "desc")" }
}
