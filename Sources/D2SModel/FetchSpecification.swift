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

  public init(
    entityName: String, qualifier: Qualifier? = nil, sortOrderings: [SortOrdering] = [], limit: Int? = nil,
    offset: Int? = nil, prefetchKeyPaths: [String] = []
  ) {
    self.entityName = entityName
    self.qualifier = qualifier
    self.sortOrderings = sortOrderings
    self.limit = limit
    self.offset = offset
    self.prefetchKeyPaths = prefetchKeyPaths
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
