import EnvKeys

extension RuleContext {
  /// The value of `key` here, and whether its answer was computed from any of `inputs`
  /// (directly, through key paths, or through other keys' rules): D2W's "significant keys".
  ///
  /// A page asks this of a column's `component` and `formatter` with `object` and
  /// `propertyValue` as inputs: when neither is read, one answer serves every row. The
  /// answer is computed anew, not taken from the cache, whose inputs are those of all the
  /// key's answers together.
  public func value<K: DynamicEnvironmentKey>(
    _ key: K.Type, readingAnyOf inputs: [any DynamicEnvironmentKey.Type]
  ) throws -> (value: K.Value, readsInputs: Bool) {
    let state = ResolutionState()
    state.bypassesCache = true
    var probe = self
    probe.state = state
    let resolution = try probe.resolve(id: ObjectIdentifier(key), exposed: nil)
    if let error = state.error { throw error }
    let read = Set(inputs.map { ObjectIdentifier($0) })
    return (RuleContext.typedValue(resolution, for: key), !state.looseInputs.isDisjoint(with: read))
  }
}
