import EnvKeys
import Synchronization

/// Values worked out from many rule answers (a page's columns, which names a URL may use),
/// kept across look-ups under the inputs those answers read: a page plan.
///
/// A plan is made by ``RuleContext/planned(_:_:)``, which records every key its look-ups read
/// (explicitly set keys, and the inputs of every answer, cached or not). It is reused only in
/// a context where each of those keys has the same fingerprint: a plan that read `user` or
/// `object` is reused only for that very object, unchanged; one that read neither serves
/// every user. When a plan of a name reads a key its others did not, the name's plans start
/// over with the wider inputs. Rule model changes and ``RuleEngine/clearCache()`` forget all.
final class PlanCache: Sendable {
  /// One plan name's values.
  final class Table {
    var inputs: [ObjectIdentifier] = []
    var inputSet: Set<ObjectIdentifier> = []
    var values: [RuleCache.CacheKey: any Sendable] = [:]
  }

  struct State {
    var tables: [String: Table] = [:]
    var version = -1
    var hits = 0
    var misses = 0
  }

  /// The most values kept per plan name before its table starts over.
  static let maximumValuesPerName = 1_024
  /// The most plan names kept before all start over (a name may carry a database's content
  /// version, and so be new after each change).
  static let maximumNames = 4_096
  private let state = Mutex(State())

  /// The value planned as `name` for `values`, made under rules `version`.
  func value(_ name: String, in values: DynamicEnvironmentValues, version: Int) -> (
    value: any Sendable, inputs: [ObjectIdentifier]
  )? {
    state.withLock { state in
      if state.version != version {
        state.tables.removeAll()
        state.version = version
      }
      guard let table = state.tables[name],
        case let key = RuleCache.key(table.inputs, in: values), key.isCacheable,
        let value = table.values[key]
      else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      return (value, table.inputs)
    }
  }

  /// Keeps `value` as `name`'s for `values`, made from `inputs` under rules `version`.
  func store(
    _ value: any Sendable, as name: String, inputs: Set<ObjectIdentifier>,
    in values: DynamicEnvironmentValues, version: Int
  ) {
    state.withLock { state in
      guard state.version == version else { return }
      if state.tables[name] == nil, state.tables.count >= Self.maximumNames {
        state.tables.removeAll()
      }
      let table = state.tables[name] ?? Table()
      state.tables[name] = table
      if !inputs.isSubset(of: table.inputSet) {
        table.inputSet.formUnion(inputs)
        table.inputs = table.inputSet.sorted { $0.hashValue < $1.hashValue }
        table.values.removeAll()
      }
      if table.values.count >= Self.maximumValuesPerName { table.values.removeAll() }
      let key = RuleCache.key(table.inputs, in: values)
      if key.isCacheable { table.values[key] = value }
    }
  }

  func clear() { state.withLock { $0.tables.removeAll() } }

  /// Plans reused and plans made since the engine was made.
  var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}

/// The keys read while a plan is made (one thread at a time: the one making it).
@usableFromInline final class PlanRecorder: @unchecked Sendable {
  /// The values of the context the plan is made in.
  let root: DynamicEnvironmentValues
  var inputs: Set<ObjectIdentifier> = []
  /// Whether a look-up failed while the plan was made (its default was read instead): such a
  /// plan is not kept, so that every request meets the error, as without plans.
  var failed = false

  init(root: DynamicEnvironmentValues) { self.root = root }

  /// Records `ids`, read in a context with `values`: those the plan set to values of its own
  /// (a probe's `entity`) are not inputs, since what was read is not the root's value.
  func record<S: Sequence<ObjectIdentifier>>(_ ids: S, readIn values: DynamicEnvironmentValues) {
    for id in ids where !inputs.contains(id) {
      if values.fingerprint(forKeyID: id) == root.fingerprint(forKeyID: id) { inputs.insert(id) }
    }
  }
}

extension RuleContext {
  /// The value `make` works out in this context, kept as `name` for every later context whose
  /// keys read by `make`'s look-ups are the same (``PlanCache``).
  ///
  /// `name` must say everything `make` depends on besides this context's keys (the entity a
  /// parameter names, the platform a closure captures): the rest is recorded.
  ///
  /// ```swift
  /// let shown = context.planned("shown/\(entity.name)") { context in
  ///   context.with(\.entity, entity).displayPropertyKeys
  /// }
  /// ```
  public func planned<T: Sendable>(_ name: String, _ make: (RuleContext) throws -> T) rethrows
    -> T
  {
    // Counting rules (coverage, look-ups) needs every look-up made.
    guard engine.isCacheEnabled, !engine.coverage.isRecording, !engine.lookups.isRecording,
      state == nil, recorder == nil
    else { return try make(self) }
    let version = engine.rulesVersion
    if let (value, inputs) = engine.plans.value(name, in: values, version: version),
      let typed = value as? T
    {
      planRecorder?.record(inputs, readIn: values)
      return typed
    }
    let recorder = PlanRecorder(root: values)
    var context = self
    context.planRecorder = recorder
    let value = try make(context)
    if recorder.failed {
      planRecorder?.failed = true
    } else {
      engine.plans.store(value, as: name, inputs: recorder.inputs, in: values, version: version)
    }
    planRecorder?.record(recorder.inputs, readIn: values)
    return value
  }

  /// Plans reused and plans made by this context's engine (for tests).
  public var planStatistics: (hits: Int, misses: Int) { engine.plans.statistics }
}
