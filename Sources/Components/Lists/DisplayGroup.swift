import D2SModel
import Qualifiers
import RuleCore

/// A list's data in one place, as upstream's display group: the fetch specification, the
/// window, the objects and the total. Any look's list page renders the same rows from it,
/// without building a fetch of its own.
public final class DisplayGroup: @unchecked Sendable {
  /// The database fetched from.
  public let database: Database
  /// What is listed.
  public let entity: Entity
  /// The fetch: the user's qualifier with the page's auxiliary one, orderings, window and the
  /// key paths the columns show (prefetched).
  public let specification: FetchSpecification

  /// The list `request` asks for in `context` (its `entity`, `auxiliaryQualifier` and
  /// `displayPropertyKeys`).
  public init(context: RuleContext, request: ListRequest) throws {
    guard let entity = context.entity else {
      throw DatabaseError(.invalidValue, "no entity to list")
    }
    guard let database = context.database else {
      throw DatabaseError(.invalidValue, "no database is open")
    }
    let qualifier = [request.qualifier, context.auxiliaryQualifier].compactMap { $0 }
    self.database = database
    self.entity = entity
    self.specification = FetchSpecification(
      entityName: entity.name, qualifier: qualifier.isEmpty ? nil : .all(qualifier),
      sortOrderings: request.sortOrderings,
      limit: request.limit, offset: request.offset == 0 ? nil : request.offset,
      prefetchKeyPaths: context.displayPropertyKeys)
  }

  /// The window's first row.
  public var offset: Int { specification.offset ?? 0 }
  /// The window's size, if any.
  public var limit: Int? { specification.limit }

  /// The objects in the window, fetched with the columns' relationships.
  public func objects() throws -> [DatabaseObject] {
    try database.fetch(specification)
  }

  /// Streams the window's rows: the entity's `attributes` (all, when nil or when rows come with
  /// objects), then the values at `paths` (joined in
  /// the same statement), with an object per row when `objects` is true (their `prefetch`
  /// relationships fetched a chunk at a time). Nothing is held beyond a chunk.
  public func forEachRow(
    attributes: [Attribute]? = nil, paths: [PropertyPath], objects: Bool, prefetch: [String],
    _ body: ([DatabaseValue], DatabaseObject?) throws -> Void
  ) throws {
    try database.fetchRows(
      specification, attributes: objects ? nil : attributes, paths: paths, objects: objects,
      prefetch: prefetch, row: body)
  }

  /// The total, given that `shown` rows were read: the rows themselves when the list has no
  /// window, else counted.
  public func total(shown: Int) throws -> ListTotal {
    if specification.limit == nil, offset == 0 { return ListTotal(shown) }
    return ListTotal(try database.count(specification))
  }
}
