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
    // A rule chosen here before is kept by what its choice read, and only its value read
    // again: not while a tool or a trace watches each step, nor when the cache is bypassed to
    // learn an answer's exact inputs (a plan being made may use it: it then records the kept
    // choices' inputs, a superset of what the walk would read).
    let choosesByKept =
      engine.isCacheEnabled && !state.bypassesCache && state.trace == nil && !state.isTool
    let slot = state.trace?.open(depth: state.frames.count, key: exposed.name)
    state.push(id, name: exposed.name)
    let resolution: RuleResolution
    do {
      if choosesByKept, let kept = try context.resolveByKeptChoice(exposed, version: version) {
        resolution = kept
      } else {
        resolution = try context.resolveByRules(
          exposed, keepingChoiceAt: choosesByKept ? version : nil)
      }
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
  ///
  /// With `keepingChoiceAt` (the rules' version), a winning rule whose value is read from the
  /// context (a key path, a computation) is kept in ``RuleEngine/choices`` under the inputs
  /// read until its predicate held: the discriminator, the predicates of the rules before it
  /// (in this model and in the models before it) and its own. Its value's reads (a title's object) are left out, so the next object's
  /// look-up finds the rule without walking the rules again. Not kept when a rule before it
  /// held but was skipped for its value (nil, or of another type): the choice then read that
  /// value too (a page's title, when `@objectDefaultTitle` finds no object), and keeping it
  /// would add the value's inputs to those of every choice of the key (the cache keeps one
  /// set of inputs a key), so that no object's title would find its rule again.
  func resolveByRules(_ key: ExposedKey, keepingChoiceAt version: Int? = nil) throws
    -> RuleResolution
  {
    var keeps = version != nil
    var choice: (inputs: Set<ObjectIdentifier>, cacheable: Bool)?
    for candidates in engine.candidates(for: key.id) {
      var winner: RuleResolution?
      try candidates.walk(
        readDiscriminator: { path in try readKeyPath(path) },
        visit: { candidate in
          let outcome = try evaluate(
            candidate.numbered, for: key,
            predicateHeld: {
              guard keeps, let frame = state?.frames.last else { return }
              choice = (frame.inputs, frame.cacheable)
            })
          guard case .matched(let value) = outcome else {
            if case .skipped = outcome { keeps = false }
            return false
          }
          winner = RuleResolution(boxed: key.box(value), source: .rule(candidate.numbered))
          return true
        })
      guard let winner else { continue }
      if keeps, let version, let choice, choice.cacheable, case .rule(let numbered) = winner.source,
        numbered.rule.value.isReadFromContext
      {
        engine.choices.store(
          winner, for: key.id, inputs: choice.inputs, in: values, version: version)
      }
      return winner
    }
    return RuleResolution(value: key.defaultValue, source: .defaultValue)
  }

  /// The answer of the rule ``resolveByRules(_:keepingChoiceAt:)`` chose here before, when
  /// nothing its choice read differs now: only the rule's value is read (and its reads
  /// recorded, with the choice's). Nil when no choice is kept, or when the value no longer
  /// fits (then the rules are walked, as the walk would skip that rule now).
  func resolveByKeptChoice(_ key: ExposedKey, version: Int) throws -> RuleResolution? {
    guard let state,
      let kept = engine.choices.lookup(key.id, in: values, version: version, inputsInto: state),
      case .rule(let numbered) = kept.source
    else { return nil }
    // No predicate is evaluated: coverage counts the win alone, as for a cached answer.
    guard case .matched(let value) = try evaluateValue(numbered, for: key) else { return nil }
    return RuleResolution(boxed: key.box(value), source: .rule(numbered))
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
  /// `predicateHeld` is called once the predicate holds, before the value is read.
  func evaluate(
    _ numbered: NumberedRule, for key: ExposedKey, predicateHeld: () -> Void = {}
  ) throws -> Outcome {
    // Read through `numbered.rule`, never copied out whole: a copy of a rule retains each of
    // its parts.
    engine.countEvaluation()
    if state?.isTool != true { engine.coverage.recordEvaluation(numbered) }
    let holds = numbered.rule.predicate.evaluate(on: self)
    if let error = state?.error { throw error }
    guard holds else { return .notMatched }
    predicateHeld()
    return try evaluateValue(numbered, for: key)
  }

  /// A rule's value, its predicate known to hold: matched when it fits the key's type.
  func evaluateValue(_ numbered: NumberedRule, for key: ExposedKey) throws -> Outcome {
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
