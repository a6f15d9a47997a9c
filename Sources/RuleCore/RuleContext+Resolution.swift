import EnvKeys
import Logging
import Qualifiers

let ruleLogger = Logger(label: "d2s.rules")

extension RuleContext {
  /// Resolves a key: explicit value, else the models' best matching rule (the user's model,
  /// then each fallback model only if none before it matched), else the default.
  ///
  /// `exposed` is looked up when nil; a key that is not exposed has no rules.
  func resolve(id: ObjectIdentifier, exposed: ExposedKey?, explicitChecked: Bool = false) throws
    -> RuleResolution
  {
    if let planRecorder, state == nil {
      // A plan is being made: resolve with a state, whose loose inputs are what was read.
      let recording = ResolutionState()
      var probe = self
      probe.state = recording
      defer { planRecorder.record(recording.looseInputs, readIn: values) }
      return try probe.resolve(id: id, exposed: exposed)
    }
    state?.recordRead(id)
    if !explicitChecked, let explicit = values.explicitValue(forKeyID: id) {
      let resolution = RuleResolution(value: explicit, source: .explicit)
      traceStep(id, exposed, resolution, cached: false)
      return resolution
    }
    if let state, state.bypassesCache, let known = state.answered[id] {
      // Answered earlier in this same lookup (counted as an uncached look-up, as it was when
      // it was resolved again: "cached" means the engine's cache).
      state.recordInputs(known.inputs)
      if !state.isTool { engine.coverage.recordWin(known.resolution) }
      traceStep(id, exposed, known.resolution, cached: false)
      if engine.lookups.isRecording { countLookup(id, exposed, known.resolution, cached: false) }
      return known.resolution
    }
    let version = engine.rulesVersion
    if engine.isCacheEnabled,
      state == nil || (state?.isResolving(id) == false && state?.bypassesCache == false),
      let answer = engine.cache.lookup(id, in: values, version: version, inputsInto: state)
    {
      if state?.isTool != true { engine.coverage.recordWin(answer) }
      traceStep(id, exposed, answer, cached: true)
      if engine.lookups.isRecording { countLookup(id, exposed, answer, cached: true) }
      return answer
    }
    guard let exposed = exposed ?? engine.registry.key(forID: id) else {
      // Not exposed: no rule can assign it (rules name exposed keys only).
      let resolution = RuleResolution(value: (), source: .defaultValue)
      if engine.lookups.isRecording { countLookup(id, nil, resolution, cached: false) }
      return resolution
    }
    let state = self.state ?? ResolutionState()
    if let cycle = state.cycle(for: id, name: exposed.name) { throw cycle }

    var context = self
    context.state = state
    let slot = state.trace?.open(depth: state.frames.count, key: exposed.name)
    state.push(id, name: exposed.name)
    let resolution: RuleResolution
    do {
      resolution = try context.resolveByRules(exposed)
    } catch {
      _ = state.pop()
      throw error
    }
    let frame = state.pop()
    if state.bypassesCache { state.answered[id] = (resolution, frame.inputs) }
    if let slot { state.trace?.close(slot, key: exposed, resolution) }
    if engine.isCacheEnabled, frame.cacheable {
      engine.cache.store(resolution, for: id, inputs: frame.inputs, in: values, version: version)
    }
    if !state.isTool { engine.coverage.recordWin(resolution) }
    if engine.lookups.isRecording { countLookup(id, exposed, resolution, cached: false) }
    return resolution
  }

  /// Counts a look-up the engine answered, for ``RuleEngine/lookups``.
  private func countLookup(
    _ id: ObjectIdentifier, _ exposed: ExposedKey?, _ resolution: RuleResolution, cached: Bool
  ) {
    engine.lookups.record(
      id, name: { (exposed ?? engine.registry.key(forID: id))?.name ?? "?" }, resolution,
      cached: cached)
  }

  /// Records a look-up answered at once (set, or from the cache) for `explain --tree`.
  private func traceStep(
    _ id: ObjectIdentifier, _ exposed: ExposedKey?, _ resolution: RuleResolution, cached: Bool
  ) {
    guard let state, let trace = state.trace else { return }
    let key = exposed ?? engine.registry.key(forID: id)
    let slot = trace.open(depth: state.frames.count, key: key?.name ?? "?")
    trace.close(slot, key: key, resolution, cached: cached)
  }

  /// Steps 2 and 3 of resolution, in a context that carries the lookup's state.
  func resolveByRules(_ key: ExposedKey) throws -> RuleResolution {
    for candidates in engine.candidates(for: key.id) {
      var winner: RuleResolution?
      try candidates.walk(
        readDiscriminator: { path in try readKeyPath(path) },
        visit: { candidate in
          if case .matched(let value) = try evaluate(candidate.numbered, for: key) {
            winner = RuleResolution(boxed: key.box(value), source: .rule(candidate.numbered))
            return true
          }
          return false
        })
      if let winner { return winner }
    }
    return RuleResolution(value: key.defaultValue, source: .defaultValue)
  }

  /// Reads a key path in this context, surfacing errors of nested lookups.
  func readKeyPath(_ path: KVCPath) throws -> Any? {
    let value = KVC.value(forKeyPath: path.components, from: self)
    if let error = state?.error { throw error }
    return value
  }

  /// The outcome of trying one rule.
  enum Outcome {
    case matched(any Sendable)
    case notMatched
    case skipped(String)
  }

  /// Evaluates a rule's predicate and, if it holds, its value (checked against the key's type).
  func evaluate(_ numbered: NumberedRule, for key: ExposedKey) throws -> Outcome {
    // Read through `numbered.rule`, never copied out whole: a copy of a rule retains each of
    // its parts.
    engine.countEvaluation()
    if state?.isTool != true { engine.coverage.recordEvaluation(numbered) }
    let holds = numbered.rule.predicate.evaluate(on: self)
    if let error = state?.error { throw error }
    guard holds else { return .notMatched }
    let raw: Any?
    switch numbered.rule.value {
    case .constant:
      guard let constant = numbered.rule.constantValue else {
        return .skipped("constant did not fit")
      }
      return .matched(constant)
    case .keyPath(let path):
      raw = try readKeyPath(path)
      guard raw != nil || key.allowsNil else { return .skipped("\(path) is nil") }
    case .negatedKeyPath(let path):
      let value = try readKeyPath(path)
      guard let flag = KVC.unwrap(value) as? Bool else {
        return .skipped(value == nil ? "\(path) is nil" : "\(path) is not a Bool")
      }
      raw = !flag
    case .computation(let name):
      guard let computation = engine.computation(named: name) else {
        throw RuleComputationError(name: name, message: "no such computation is registered")
      }
      raw = try computation(self)
      if let error = state?.error { throw error }
      guard raw != nil || key.allowsNil else { return .skipped("@\(name) gave nil") }
    }
    guard let typed = key.cast(raw) else {
      let shown = raw.map { String(describing: KVC.unwrap($0) ?? "nil") } ?? "nil"
      return .skipped("value \(shown) does not fit \(key.valueTypeName)")
    }
    return .matched(typed)
  }
}
