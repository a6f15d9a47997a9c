import EnvKeys

extension RuleContext {
  /// The value of `key` here, and whether its answer was computed from any of `inputs`
  /// (directly, through key paths, or through other keys' rules): D2W's "significant keys".
  ///
  /// A page asks this of a column's `component` and `formatter` with `object` and
  /// `propertyValue` as inputs: when neither is read, one answer serves every row. A cached
  /// answer is used when none of the key's answers (whose inputs the cache keeps together)
  /// read any of `inputs`; otherwise the answer is computed anew, to learn exactly what it
  /// read.
  public func value<K: DynamicEnvironmentKey>(
    _ key: K.Type, readingAnyOf inputs: [any DynamicEnvironmentKey.Type]
  ) throws -> (value: K.Value, readsInputs: Bool) {
    let read = Set(inputs.map { ObjectIdentifier($0) })
    let id = ObjectIdentifier(key)
    if state == nil, values.explicitValue(forKeyID: id) == nil, engine.isCacheEnabled,
      !engine.lookups.isRecording
    {
      let cached = ResolutionState()
      if let answer = engine.cache.lookup(
        id, in: values, version: engine.rulesVersion, inputsInto: cached),
        cached.looseInputs.isDisjoint(with: read)
      {
        // The key itself too: a value set for it later must change the plan.
        planRecorder?.record(cached.looseInputs.union([id]), readIn: values)
        engine.coverage.recordWin(answer)
        return (RuleContext.typedValue(answer, for: key), false)
      }
    }
    let state = ResolutionState()
    state.bypassesCache = true
    var probe = self
    probe.state = state
    let resolution = try probe.resolve(id: ObjectIdentifier(key), exposed: nil)
    if let error = state.error { throw error }
    planRecorder?.record(state.looseInputs, readIn: values)
    return (RuleContext.typedValue(resolution, for: key), !state.looseInputs.isDisjoint(with: read))
  }
}
