import Dispatch
import EnvKeys
import Qualifiers
import Synchronization

/// One value of a facet and how many rows hold it.
public struct FacetCount: Sendable, Equatable {
  /// The value as stored.
  public var value: DatabaseValue
  /// The rows holding it.
  public var count: Int

  /// A value held by `count` rows.
  public init(_ value: DatabaseValue, count: Int) {
    self.value = value
    self.count = count
  }
}

/// Facets: the values of a column among a list's rows, with their counts, counted on the
/// second connection so that a page never waits on them longer than it chooses.
extension Database {
  /// The values at `path` among the rows `specification` selects, the most frequent first, at
  /// most `limit`, counted on this connection.
  public func facetCounts(_ specification: FetchSpecification, path: KVCPath, limit: Int)
    throws -> [FacetCount]
  {
    try Self.facetCounts(
      specification, path: path, limit: limit, entity: try entity(specification.entityName),
      model: model, on: adaptor)
  }

  /// Starts counting the values at each of `paths` on the second connection, one path after
  /// another; nil when the database has none (then count here, with
  /// ``facetCounts(_:path:limit:)``).
  public func startFacetCounts(
    _ specification: FetchSpecification, paths: [KVCPath], limit: Int
  ) throws -> BackgroundFacets? {
    let entity = try entity(specification.entityName)
    guard let reader = side.reader(opening: adaptor) else { return nil }
    let task = BackgroundFacets(count: paths.count)
    let dependencies = DependencyValues.current
    side.queue.async { [model] in
      reader.interrupt { task.isCancelled || Interruption.isRequested }
      DependencyValues.$current.withValue(dependencies) {
        for (index, path) in paths.enumerated() where !task.isCancelled {
          let counts = try? Self.facetCounts(
            specification, path: path, limit: limit, entity: entity, model: model, on: reader)
          task.set(index, counts)
        }
        task.end()
      }
    }
    return task
  }

  private static func facetCounts(
    _ specification: FetchSpecification, path: KVCPath, limit: Int, entity: Entity, model: Model,
    on adaptor: any DatabaseAdaptor
  ) throws -> [FacetCount] {
    var builder = SQLBuilder(
      dialect: adaptor.dialect, model: model, entity: entity,
      encode: { adaptor.encode($0, for: $1) })
    let (statement, attribute) = try builder.facet(specification, path: path, limit: limit)
    var counts: [FacetCount] = []
    try adaptor.query(statement, columns: [attribute, nil]) { row in
      guard row.count == 2 else { return }
      counts.append(FacetCount(row[0], count: row[1].intValue ?? 0))
    }
    return counts
  }
}

/// Facet counts running on a database's second connection; a page waits for them only so
/// long.
public final class BackgroundFacets: Sendable {
  private let results: Mutex<[[FacetCount]?]>
  private let cancelled = Atomic<Bool>(false)
  private let ended = DispatchSemaphore(value: 0)

  init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

  /// Stops the counts (the running statement is interrupted).
  public func cancel() { cancelled.store(true, ordering: .relaxed) }

  /// Waits at most `timeout` for every count to end; returns each path's counts, nil for one
  /// not counted (yet, or at all: it failed).
  public func wait(upTo timeout: Duration) -> [[FacetCount]?] {
    // A budget too long to count waits without limit (Dispatch saturates the sum too).
    if ended.wait(timeout: .now() + .nanoseconds(timeout.saturatedNanoseconds)) == .success {
      ended.signal()
    }
    return results.withLock { $0 }
  }

  func set(_ index: Int, _ counts: [FacetCount]?) {
    results.withLock { if index < $0.count { $0[index] = counts } }
  }

  func end() { ended.signal() }
}
