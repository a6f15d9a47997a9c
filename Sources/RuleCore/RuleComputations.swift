import Synchronization

/// Named builtin computations that rules use as values: `@prettyPropertyKey` and the like
/// (Direct to Web's *DefaultAssignment*). They print and parse like any value.
public final class RuleComputations: Sendable {
  /// A computation: reads what it needs from the context, returns the value or nil.
  public typealias Computation = @Sendable (RuleContext) throws -> Any?

  private let table = Mutex<[String: Computation]>([:])
  private let versionCounter = Atomic(0)

  /// Changes whenever a computation is registered.
  var version: Int { versionCounter.load(ordering: .acquiring) }

  /// A table with no computations.
  public init() {}

  /// Registers `computation` as `@name`; a later registration of the name replaces it.
  public func register(_ name: String, _ computation: @escaping Computation) {
    table.withLock { $0[name] = computation }
    versionCounter.wrappingAdd(1, ordering: .releasing)
  }

  /// The computation named `name` (without the `@`).
  public func computation(named name: String) -> Computation? {
    table.withLock { $0[name] }
  }

  /// The registered names, sorted.
  public var names: [String] { table.withLock { $0.keys.sorted() } }

  private let exclusive = Mutex<[Set<String>]>([])

  /// Declares that at most one of `keys` has a value in any context (a property is an
  /// attribute or a relationship, never both), so that `lint` knows conditions that need two
  /// of them cannot both hold.
  ///
  /// ```swift
  /// computations.declareExclusive(["attribute", "relationship"])
  /// ```
  public func declareExclusive(_ keys: Set<String>) {
    exclusive.withLock { $0.append(keys) }
  }

  /// The sets declared by ``declareExclusive(_:)``.
  public var exclusiveKeySets: [Set<String>] { exclusive.withLock { $0 } }
}
