import EnvKeys

extension RuleEngine {
  /// Whether a rule of any model assigns `key` (its deferred rules parsed to know).
  public func hasRules<K: DynamicEnvironmentKey>(for key: K.Type) -> Bool {
    !candidates(for: ObjectIdentifier(key)).isEmpty
  }
}

extension RuleContext {
  /// Whether `key` reads here as it would in any context made from this one by setting keys
  /// it does not depend on: no rule assigns it (so only a value set here, or its default,
  /// answers), and no look-up is being counted, traced or explained. A question asked for
  /// each of many probes (is each entity reachable?) can then be asked here. Rule coverage
  /// may be recording: with no rule for the key, a probe's look-up fires none.
  public func readsAlikeInEveryProbe<K: DynamicEnvironmentKey>(_ key: K.Type) -> Bool {
    !engine.lookups.isRecording && state == nil && recorder == nil && !engine.hasRules(for: key)
  }
}
