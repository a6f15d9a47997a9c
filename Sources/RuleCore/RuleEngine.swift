import EnvKeys
import Synchronization

/// What a family of rule contexts shares: the rule models (the user's first, then the
/// fallback models), the exposed-key registry, the named computations and the answer cache.
public final class RuleEngine: Sendable {
  /// The user's model first, then the fallback models in order (the builtin one last).
  public let models: [RuleModel]
  /// Names of keys for rule text, the REPL and key paths.
  public let registry: D2SContextKVC
  /// `@name` computations.
  public let computations: RuleComputations
  /// Whether answers are cached.
  public let isCacheEnabled: Bool
  let cache: RuleCache
  /// The rules that won, kept by what their choice read, not what their values read (see
  /// ``RuleContext/resolveByRules(_:keepingChoiceAt:)``): a title's rule, chosen by the
  /// entity, is found again for the next object without walking the rules.
  let choices: RuleCache
  /// What the shared models and computations answered this engine, kept while they are
  /// unchanged (``candidates(for:)``, ``computation(named:)``): a server's connections, an
  /// engine each, then never wait on each other for the shared locks.
  let kept = Mutex(KeptAnswers())
  /// Values worked out from many answers, kept under the inputs they read.
  let plans = PlanCache()
  private let evaluations = Atomic<Int>(0)
  /// How often each rule won and was evaluated, once ``RuleCoverageCounter/start()`` is called.
  public let coverage = RuleCoverageCounter()
  /// The look-ups per key and answering rule, while ``RuleLookupCounter/start()`` records.
  public let lookups = RuleLookupCounter()
  /// This engine's identity, which no other object of the process ever has
  /// (``RuleCacheIdentity/next()``; an engine's address may be reused once it is freed): what a
  /// store outside the engine keeps to know it again. A weak reference would do as much, but
  /// gives the engine a side table, and then every retain and release of it, on every page,
  /// takes the runtime's slow path.
  package let identity = RuleCacheIdentity.next()
  /// Errors of non-throwing reads while ``collectingReadErrors(_:)`` runs; nil otherwise.

  /// An engine over `ruleModel`, then `fallbacks`; attaches every model to `registry`.
  ///
  /// ```swift
  /// let rules: RuleModel = [\.task == "list" => \.nextTask <= "inspect"]
  /// let engine = try RuleEngine(ruleModel: rules, registry: registry)
  /// ```
  /// - Parameters:
  ///   - ruleModel: The user's rules.
  ///   - fallbacks: Models consulted, in order, only when no rule of the models before them
  ///     matches, whatever the priorities.
  ///   - registry: Exposed keys (default: the shared registry).
  ///   - computations: `@name` computations.
  ///   - cache: Whether to cache answers (on by default).
  /// - Throws: ``RuleDSLError`` naming every rule written in Swift, in any of the models, that
  ///   cannot be made a rule in `registry` (see ``RuleModel/attach(to:)``).
  public convenience init(
    ruleModel: RuleModel, fallbacks: [RuleModel] = [],
    registry: D2SContextKVC = .shared, computations: RuleComputations = RuleComputations(),
    cache: Bool = true
  ) throws(RuleDSLError) {
    var failures: [RuleDSLError.Failure] = []
    for model in [ruleModel] + fallbacks {
      do throws(RuleDSLError) {
        try model.attach(to: registry)
      } catch {
        failures += error.failures
      }
    }
    if !failures.isEmpty { throw RuleDSLError(failures: failures) }
    self.init(
      models: [ruleModel] + fallbacks, registry: registry, computations: computations, cache: cache)
  }

  /// An engine with no rules: every key is explicit or its default.
  public convenience init(
    registry: D2SContextKVC = .shared, computations: RuleComputations = RuleComputations(),
    cache: Bool = true
  ) {
    self.init(models: [RuleModel()], registry: registry, computations: computations, cache: cache)
  }

  private init(
    models: [RuleModel], registry: D2SContextKVC, computations: RuleComputations, cache: Bool,
    maximumAnswersPerKey: Int = RuleCache.defaultMaximumAnswersPerKey
  ) {
    self.models = models
    self.registry = registry
    self.computations = computations
    self.isCacheEnabled = cache
    self.cache = RuleCache(maximumAnswersPerKey: maximumAnswersPerKey)
    self.choices = RuleCache(maximumAnswersPerKey: maximumAnswersPerKey)
  }

  /// An engine with the same rules, registry and computations, and a cache of its own: one
  /// per thread that renders pages (a web server's connections), so that lookups on
  /// different threads never wait for each other's cache. `maximumAnswersPerKey` bounds the
  /// cache: a server, whose every request fetches objects anew, gains nothing from keeping
  /// answers about earlier requests' objects.
  public func sibling(maximumAnswersPerKey: Int = 50_000) -> RuleEngine {
    RuleEngine(
      models: models, registry: registry, computations: computations, cache: isCacheEnabled,
      maximumAnswersPerKey: maximumAnswersPerKey)
  }

  /// The user's rule model.
  public var ruleModel: RuleModel { models[0] }

  /// Changes whenever a rule of any model is added or removed: each model's version only
  /// grows, so their sum does too.
  var rulesVersion: Int {
    var sum = 0
    for model in models { sum &+= model.version }
    return sum
  }

  /// Forgets every cached answer (opening a database does this).
  public func clearCache() {
    cache.clear()
    choices.clear()
    plans.clear()
  }

  /// Cache statistics: hits and misses since the engine was made.
  public var cacheStatistics: (hits: Int, misses: Int) { cache.statistics }

  /// How many rule predicates have been evaluated (for tests that count rule work).
  public var evaluationCount: Int { evaluations.load(ordering: .relaxed) }

  func countEvaluation() { evaluations.wrappingAdd(1, ordering: .relaxed) }

  /// Runs `body` and returns, with its result, the errors that reads which cannot throw (the
  /// typed subscripts that views use) ran into, such as rule cycles: collected instead of
  /// logged, so that a caller such as the REPL can report them. The errors are those of the
  /// calling thread (or task) alone: pages rendered at once on other threads keep theirs.
  public func collectingReadErrors<T>(_ body: () throws -> T) rethrows -> (
    result: T, errors: [any Error]
  ) {
    let collector = ReadErrorCollector()
    let result = try ReadErrorCollector.$current.withValue(collector) { try body() }
    return (result, collector.errors.withLock { $0 })
  }

  /// Keeps `error` for ``collectingReadErrors(_:)``; false when nothing is collecting.
  func collect(_ error: any Error) -> Bool {
    guard let collector = ReadErrorCollector.current else { return false }
    collector.errors.withLock { $0.append(error) }
    return true
  }

  /// A parser for rule text against this engine's registry and computations.
  public var parser: RuleParser { RuleParser(registry: registry, computations: computations) }
}

/// The read errors of one ``RuleEngine/collectingReadErrors(_:)`` call, found through a task
/// local: each thread or task that collects has its own.
final class ReadErrorCollector: Sendable {
  @TaskLocal static var current: ReadErrorCollector?
  let errors = Mutex<[any Error]>([])
}
