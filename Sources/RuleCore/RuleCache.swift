import EnvKeys
import Synchronization

/// Cached answers per key, keyed by the values of every key the answer was computed from.
///
/// For each key the cache keeps the set of *input* keys that its resolutions read (directly or
/// through key paths and other derived keys). An answer is reused only when every input has the
/// same fingerprint: hashable values by value, database objects by identity and change
/// counter, unset keys as absent. When a resolution reads a new input, the key's table starts
/// over. Rule model changes clear everything.
///
/// The engine's second instance, ``RuleEngine/choices``, keeps the rules that won rather than
/// answers, under the inputs read until each winner's predicate held.
final class RuleCache: Sendable {
  /// The fingerprints of a key's inputs, in the table's input order.
  struct CacheKey: Hashable {
    let first: CacheFingerprint
    let rest: [CacheFingerprint]

    /// The key of inputs one of which is not cacheable: nothing is kept or found under it.
    static let uncacheable = CacheKey(first: .uncacheable, rest: [])

    /// Whether answers may be kept and found under this key: ``RuleCache/key(_:in:)`` makes
    /// a key with an uncacheable input ``uncacheable``, never one with it in `rest`.
    var isCacheable: Bool { first.isCacheable }

    func hash(into hasher: inout Hasher) {
      hasher.combine(first)
      if !rest.isEmpty { hasher.combine(rest) }
    }

    // Fingerprints carry a precomputed SipHash of their value; mixing those words with the
    // seed is enough, and saves hashing on every cache hit.
    func _rawHashValue(seed: Int) -> Int {
      var bits = UInt(bitPattern: first.precomputedHash) ^ UInt(bitPattern: seed)
      for fingerprint in rest {
        bits = (bits &* 0x9E37_79B9_7F4A_7C15) ^ UInt(bitPattern: fingerprint.precomputedHash)
      }
      bits = (bits ^ (bits >> 31)) &* 0xBF58_476D_1CE4_E5B9
      return Int(bitPattern: bits ^ (bits >> 29))
    }
  }

  /// One key's answers (a class: a hit touches it through one reference). Read and written
  /// only under its shard's lock, which is what excludes overlapping accesses: the runtime's
  /// own check of each access (a thread-local set, on every hit) is left out.
  final class KeyTable {
    /// The key's identity.
    let id: ObjectIdentifier
    @exclusivity(unchecked) var inputs: [ObjectIdentifier] = []
    @exclusivity(unchecked) var inputSet: Set<ObjectIdentifier> = []
    @exclusivity(unchecked) var answers: [CacheKey: RuleResolution] = [:]

    init(id: ObjectIdentifier) { self.id = id }
  }

  struct State {
    /// The shard's keys' tables, found by a linear search: a shard holds a few keys (a rule
    /// system exposes some hundreds, over 32 shards), and a dictionary keyed by a type of
    /// ours would cost a search of the runtime's conformance tables at every start.
    var tables: [KeyTable] = []
    var version = -1
    var hits = 0
    var misses = 0
  }

  /// A share of the keys, with a lock of its own: lookups of different keys on different
  /// threads (a web server's requests) rarely wait for each other.
  final class Shard: Sendable {
    let state = Mutex(State())
  }

  /// The most answers kept per key before its table starts over, by default.
  static let defaultMaximumAnswersPerKey = 50_000
  /// The most answers kept per key before its table starts over.
  let maximumAnswersPerKey: Int

  /// A cache keeping at most `maximumAnswersPerKey` answers per key.
  init(maximumAnswersPerKey: Int = RuleCache.defaultMaximumAnswersPerKey) {
    self.maximumAnswersPerKey = max(1, maximumAnswersPerKey)
  }
  static let shardCount = 32

  private let shards: [Shard] = (0..<RuleCache.shardCount).map { _ in Shard() }

  private func shard(_ id: ObjectIdentifier) -> Shard {
    let bits = UInt(bitPattern: unsafeBitCast(id, to: Int.self)) &* 0x9E37_79B9_7F4A_7C15
    return shards[Int(bits >> (UInt.bitWidth - 5))]
  }

  func clear() {
    for shard in shards { shard.state.withLock { $0.tables.removeAll() } }
  }

  var statistics: (hits: Int, misses: Int) {
    shards.reduce((0, 0)) { total, shard in
      shard.state.withLock { (total.0 + $0.hits, total.1 + $0.misses) }
    }
  }

  /// The fingerprints of `inputs` in `values`; a key that is not ``CacheKey/isCacheable``
  /// when one of them is not (not an Optional: its copies and destruction go through the
  /// runtime's generic value witnesses, on every hit).
  static func key(_ inputs: [ObjectIdentifier], in values: DynamicEnvironmentValues) -> CacheKey {
    guard let head = inputs.first else { return CacheKey(first: .absent, rest: []) }
    let first = values.fingerprint(forKeyID: head)
    guard first.isCacheable else { return .uncacheable }
    guard inputs.count > 1 else { return CacheKey(first: first, rest: []) }
    var rest: [CacheFingerprint] = []
    rest.reserveCapacity(inputs.count - 1)
    for input in inputs.dropFirst() {
      let fingerprint = values.fingerprint(forKeyID: input)
      guard fingerprint.isCacheable else { return .uncacheable }
      rest.append(fingerprint)
    }
    return CacheKey(first: first, rest: rest)
  }

  /// The cached answer for `id` in `values`; the inputs it depends on are recorded into
  /// `inputsInto`, the lookup in progress that asked. One lock per look-up: the inputs'
  /// fingerprints are read under it (set values carry theirs, made when they were set).
  func lookup(
    _ id: ObjectIdentifier, in values: DynamicEnvironmentValues, version: Int,
    inputsInto asker: ResolutionState?
  ) -> RuleResolution? {
    let found = shard(id).state.withLock { cache -> (RuleResolution, [ObjectIdentifier])? in
      if cache.version != version {
        cache.tables.removeAll()
        cache.version = version
      }
      guard let table = cache.tables.first(where: { $0.id == id }),
        case let key = RuleCache.key(table.inputs, in: values), key.isCacheable,
        let answer = table.answers[key]
      else {
        cache.misses += 1
        return nil
      }
      cache.hits += 1
      return (answer, asker == nil ? [] : table.inputs)
    }
    guard let (answer, inputs) = found else { return nil }
    asker?.recordInputs(inputs)
    return answer
  }

  /// Remembers `answer` for `id`, computed from `inputs` in `values`.
  func store(
    _ answer: RuleResolution, for id: ObjectIdentifier, inputs: Set<ObjectIdentifier>,
    in values: DynamicEnvironmentValues, version: Int
  ) {
    shard(id).state.withLock { state in
      guard state.version == version else { return }
      let table: KeyTable
      if let existing = state.tables.first(where: { $0.id == id }) {
        table = existing
      } else {
        table = KeyTable(id: id)
        state.tables.append(table)
      }
      if !inputs.isSubset(of: table.inputSet) {
        table.inputSet.formUnion(inputs)
        table.inputs = table.inputSet.sorted { $0.hashValue < $1.hashValue }
        table.answers.removeAll()
      }
      if table.answers.count >= maximumAnswersPerKey { table.answers.removeAll() }
      let key = RuleCache.key(table.inputs, in: values)
      if key.isCacheable { table.answers[key] = answer }
    }
  }
}
