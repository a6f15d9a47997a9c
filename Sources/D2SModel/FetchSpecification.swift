import EnvKeys
import Qualifiers

/// What to fetch: an entity, a qualifier over its properties and key paths, orderings,
/// a window, and the to-one key paths whose objects to fetch along (batched, never per row).
public struct FetchSpecification: Sendable {
  public var entityName: String
  public var qualifier: Qualifier?
  public var sortOrderings: [SortOrdering]
  public var limit: Int?
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
/// fetch's orderings followed by its primary key (as ``Database/fetchRows(_:attributes:paths:positions:readAhead:counting:row:)``
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
  public var keyPath: String
  public var ascending: Bool
  public var caseInsensitive: Bool
  public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
    self.keyPath = keyPath
    self.ascending = ascending
    self.caseInsensitive = caseInsensitive
  }
  public var description: String { "\(keyPath) \(ascending ? "asc" : "desc")" }
}
