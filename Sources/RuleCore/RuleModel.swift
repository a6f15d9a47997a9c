import EnvKeys
import Qualifiers
import Synchronization

/// Where a rule model comes from; it decides how `show` and `explain` name a rule's source.
public enum RuleOrigin: Hashable, Sendable {
  /// The user's rules (`rule N: …`).
  case user
  /// The builtin default rule model (`builtin rule N: …`).
  case builtin
  /// A plugin's rules (`plugin NAME rule N: …`).
  case plugin(String)
}

/// A rule with the number its model gave it (numbers are never reused).
///
/// A class, so answers that name their rule are one reference to copy.
public final class NumberedRule: Sendable, Equatable, CustomStringConvertible {
  public let id: Int
  public let rule: Rule
  public let origin: RuleOrigin
  /// How often the rule won and was evaluated (shared by every copy its model hands out).
  let counter: RuleCounter

  public convenience init(id: Int, rule: Rule, origin: RuleOrigin) {
    self.init(id: id, rule: rule, origin: origin, counter: RuleCounter())
  }

  init(id: Int, rule: Rule, origin: RuleOrigin, counter: RuleCounter) {
    self.id = id
    self.rule = rule
    self.origin = origin
    self.counter = counter
  }

  public static func == (lhs: NumberedRule, rhs: NumberedRule) -> Bool {
    lhs.id == rhs.id && lhs.rule == rhs.rule && lhs.origin == rhs.origin
  }

  /// `rule 3: …`, `builtin rule 12: …` or `plugin NAME rule 2: …`.
  public var description: String {
    switch origin {
    case .user: "rule \(id): \(rule)"
    case .builtin: "builtin rule \(id): \(rule)"
    case .plugin(let name): "plugin \(name) rule \(id): \(rule)"
    }
  }
}

/// Two rules with the same condition and priority that assign different values.
public struct RuleWarning: Sendable, Equatable, CustomStringConvertible {
  /// The rule just added; it wins over `existing` (added later).
  public let added: NumberedRule
  /// The rule it ties with.
  public let existing: NumberedRule
  public var description: String {
    "warning: rule \(added.id) (\(added.rule)) and rule \(existing.id) (\(existing.rule)) have the same condition and priority but assign different values; rule \(added.id) wins because it was added later"
  }
}

/// A set of rules, indexed by the key each rule assigns.
///
/// ```swift
/// let model: RuleModel = [
///   \.task == "list" => \.nextTask <= "inspect",
/// ]
/// ```
/// Adding, dropping or loading rules bumps ``version``, which clears rule caches.
public final class RuleModel: Sendable, ExpressibleByArrayLiteral {
  private struct State {
    var rules: [Int: Rule] = [:]
    /// The key each rule assigns, by number: finding a key's rules reads these, not copies of
    /// every rule.
    var keys: [Int: ObjectIdentifier] = [:]
    /// Rules written in Swift, by number, until an attach names their keys; with the reason
    /// the last attach could not.
    var pending: [Int: (rule: DSLRule, failure: DSLFailure?)] = [:]
    /// Rules kept as text until their key is looked up (``loadDeferred(_:file:parser:)``).
    var deferred: [Int: DeferredRule] = [:]
    var order: [Int] = []
    var nextID = 1
    var signatures: [String: [Int]] = [:]
    var candidates: [ObjectIdentifier: KeyCandidates] = [:]
    /// Keys asked for that no rule of this model assigns (so the rules are not scanned again).
    var keysWithoutRules: Set<ObjectIdentifier> = []
    var warnings: [RuleWarning] = []
    /// The registry of the last attach: Swift rules added later are named by it at once.
    var registry: D2SContextKVC?
    var counters: [Int: RuleCounter] = [:]

    func counter(_ id: Int) -> RuleCounter { counters[id] ?? RuleCounter() }
  }
  private let state = Mutex(State())
  private let versionCounter = Atomic<Int>(0)

  /// Where the rules come from.
  public let origin: RuleOrigin
  /// Where rules added from rule text were written.
  let sources = RuleSources()

  /// An empty model.
  public init(origin: RuleOrigin = .user) {
    self.origin = origin
  }

  /// A model holding `rules`, in order.
  public convenience init(_ rules: [Rule], origin: RuleOrigin = .user) {
    self.init(origin: origin)
    add(contentsOf: rules)
  }

  /// A model from DSL rules (`\.task == "list" => \.nextTask <= "inspect"`).
  public convenience init(arrayLiteral elements: RuleModelElement...) {
    self.init(origin: .user)
    for element in elements { element.add(to: self) }
  }

  /// Changes whenever rules are added or removed.
  public var version: Int { versionCounter.load(ordering: .acquiring) }

  /// Adds a rule and returns its number and any ambiguity warnings.
  @discardableResult
  public func add(_ rule: Rule) -> (id: Int, warnings: [RuleWarning]) {
    let result = state.withLock { state -> (Int, [RuleWarning]) in
      let id = state.nextID
      state.nextID += 1
      state.order.append(id)
      return (id, insert(rule, id: id, into: &state))
    }
    versionCounter.wrappingAdd(1, ordering: .releasing)
    return result
  }

  /// Files `rule` under `id` (already in the order) and returns its ambiguity warnings.
  private func insert(_ rule: Rule, id: Int, into state: inout State) -> [RuleWarning] {
    state.rules[id] = rule
    state.keys[id] = rule.key.id
    state.counters[id] = RuleCounter()
    state.candidates[rule.key.id] = nil
    state.keysWithoutRules.remove(rule.key.id)
    // The builtin rules are checked for conflicts by a test (DefaultRulesTests), not at each
    // start: their signatures print every condition, a fifth of the model's set-up.
    guard origin != .builtin else { return [] }
    let signature = rule.conditionSignature
    var warnings: [RuleWarning] = []
    if let others = state.signatures[signature] {
      let added = NumberedRule(id: id, rule: rule, origin: origin)
      for other in others.reversed() {
        guard let existing = state.rules[other], existing.value != rule.value else { continue }
        warnings.append(
          RuleWarning(
            added: added, existing: NumberedRule(id: other, rule: existing, origin: origin)))
        break
      }
    }
    state.signatures[signature, default: []].append(id)
    state.warnings += warnings
    return warnings
  }

  /// Adds a rule written in Swift. It takes its number now and becomes a ``Rule`` when the
  /// model is attached to an engine (at once when it already was).
  public func add(_ rule: DSLRule) {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.order.append(id)
      guard let registry = state.registry else {
        state.pending[id] = (rule, nil)
        return
      }
      do throws(DSLFailure) {
        _ = insert(try rule.rule(in: registry), id: id, into: &state)
      } catch {
        state.pending[id] = (rule, error)
      }
    }
    versionCounter.wrappingAdd(1, ordering: .releasing)
  }

  /// Names the keys of the rules written in Swift from `registry` and makes them rules; engines
  /// do this when a model is attached to them (`RuleEngine`, `D2SEngine.make`, `RuleTester`).
  ///
  /// - Throws: ``RuleDSLError`` naming each rule that cannot be made (its `FILE:LINE` and the
  ///   reason: a key `registry` does not expose, a constant that does not fit its key, …).
  ///   Those rules stay in the model, out of every lookup, and are reported again by the next
  ///   attach.
  public func attach(to registry: D2SContextKVC) throws(RuleDSLError) {
    let (resolved, failures) = state.withLock { state -> (Int, [RuleDSLError.Failure]) in
      state.registry = registry
      var resolved = 0
      var failures: [RuleDSLError.Failure] = []
      for id in state.order {
        guard let (rule, _) = state.pending[id] else { continue }
        do throws(DSLFailure) {
          _ = insert(try rule.rule(in: registry), id: id, into: &state)
          state.pending[id] = nil
          resolved += 1
        } catch {
          state.pending[id] = (rule, error)
          let printed = rule.printed(in: registry)
          failures.append(
            RuleDSLError.Failure(rule: printed, location: rule.location, reason: error.reason))
        }
      }
      return (resolved, failures)
    }
    if resolved > 0 { versionCounter.wrappingAdd(1, ordering: .releasing) }
    if !failures.isEmpty { throw RuleDSLError(failures: failures) }
  }

  /// Adds rules in order; returns every ambiguity warning.
  @discardableResult
  public func add(contentsOf rules: [Rule]) -> [RuleWarning] {
    rules.flatMap { add($0).warnings }
  }

  /// Removes rule number `id`; returns it, or nil when there is no such rule.
  @discardableResult
  public func remove(id: Int) -> Rule? {
    let removed = state.withLock { state -> Rule? in
      materialize([id], in: &state)
      guard let rule = state.rules.removeValue(forKey: id) else { return nil }
      state.keys[id] = nil
      state.counters[id] = nil
      state.order.removeAll { $0 == id }
      state.candidates[rule.key.id] = nil
      state.keysWithoutRules.remove(rule.key.id)
      let signature = rule.conditionSignature
      state.signatures[signature]?.removeAll { $0 == id }
      if state.signatures[signature]?.isEmpty == true { state.signatures[signature] = nil }
      return rule
    }
    if removed != nil { versionCounter.wrappingAdd(1, ordering: .releasing) }
    return removed
  }

  /// The rule numbered `id`.
  public func rule(id: Int) -> Rule? {
    state.withLock { state in
      materialize([id], in: &state)
      return state.rules[id]
    }
  }

  /// Every rule with its number, in the order added (rules written in Swift once attached).
  public var rules: [NumberedRule] {
    state.withLock { state in
      materializeAll(in: &state)
      return state.order.compactMap { id in
        state.rules[id].map {
          NumberedRule(id: id, rule: $0, origin: origin, counter: state.counter(id))
        }
      }
    }
  }

  /// The number of rules, rules written in Swift that are not attached yet included.
  public var count: Int {
    state.withLock { state in
      materializeAll(in: &state)
      return state.order.count
    }
  }

  /// The rules written in Swift that no attach has made rules yet (not attached, or failed).
  public var unattachedRules: [DSLRule] {
    state.withLock { state in state.order.compactMap { state.pending[$0]?.rule } }
  }

  /// Ambiguity warnings of every rule added so far.
  public var warnings: [RuleWarning] { state.withLock { $0.warnings } }

  /// Adds the rules of `text` in order, each parsed when a look-up first asks for the key it
  /// assigns, or when the rules are read as a whole (``rules``, ``description``). For text
  /// known to parse (the builtin rules, which a test parses whole): a rule that fails later is
  /// dropped and logged. A rule whose key cannot be read without parsing it is parsed now,
  /// and an error there loads nothing. Deferred rules are not checked for conflicts (the
  /// builtin model's never are).
  package func loadDeferred(_ text: String, file: String?, parser: RuleParser)
    throws(RuleFileError)
  {
    enum Entry {
      case deferred(DeferredRule, key: ObjectIdentifier, source: RuleSource)
      case parsed(PlacedRule)
    }
    var entries: [Entry] = []
    var errors: [ParseError] = []
    for (ruleText, line) in RuleParser.ruleTexts(text) {
      if let name = RuleParser.assignedKeyName(ruleText), let key = parser.registry.key(named: name)
      {
        entries.append(
          .deferred(
            DeferredRule(text: ruleText, file: file, line: line, parser: parser), key: key.id,
            source: RuleParser.source(ruleText, file: file, line: line)))
        continue
      }
      do {
        if let rule = try parser.parseRuleIfAny(ruleText, file: file, firstLine: line) {
          let source = RuleParser.source(ruleText, file: file, line: line)
          entries.append(.parsed(PlacedRule(rule: rule, source: source)))
        }
      } catch {
        errors.append(error)
      }
    }
    guard errors.isEmpty else { throw RuleFileError(errors: errors) }
    state.withLock { state in
      for entry in entries {
        let id = state.nextID
        state.nextID += 1
        state.order.append(id)
        switch entry {
        case .deferred(let rule, let key, let source):
          state.deferred[id] = rule
          state.keys[id] = key
          state.counters[id] = RuleCounter()
          state.candidates[key] = nil
          state.keysWithoutRules.remove(key)
          sources.set(source, for: id)
        case .parsed(let placed):
          _ = insert(placed.rule, id: id, into: &state)
          sources.set(placed.source, for: id)
        }
      }
    }
    versionCounter.wrappingAdd(1, ordering: .releasing)
  }

  /// Parses the deferred rules among `ids`.
  private func materialize(_ ids: [Int], in state: inout State) {
    for id in ids {
      guard let deferred = state.deferred.removeValue(forKey: id) else { continue }
      let rule: Rule?
      do {
        rule = try deferred.parser.parseRuleIfAny(
          deferred.text, file: deferred.file, firstLine: deferred.line)
      } catch {
        ruleLogger.error("\(error)")
        rule = nil
      }
      guard let rule else {
        if let key = state.keys.removeValue(forKey: id) { state.candidates[key] = nil }
        state.counters[id] = nil
        state.order.removeAll { $0 == id }
        continue
      }
      state.rules[id] = rule
      // A key read wrongly from the text: the rule goes under its own.
      if let read = state.keys[id], read != rule.key.id {
        state.candidates[read] = nil
        state.keys[id] = rule.key.id
        state.candidates[rule.key.id] = nil
        state.keysWithoutRules.remove(rule.key.id)
      }
    }
  }

  /// Parses every deferred rule.
  private func materializeAll(in state: inout State) {
    guard !state.deferred.isEmpty else { return }
    materialize(state.order.filter { state.deferred[$0] != nil }, in: &state)
  }

  /// The rules that assign the key `id`, ranked and indexed (built once per change).
  func candidates(for id: ObjectIdentifier) -> KeyCandidates? {
    state.withLock { state in
      if let cached = state.candidates[id] { return cached }
      if state.keysWithoutRules.contains(id) { return nil }
      if !state.deferred.isEmpty {
        materialize(
          state.order.filter { state.deferred[$0] != nil && state.keys[$0] == id }, in: &state)
        if let cached = state.candidates[id] { return cached }
      }
      let rules = state.order.compactMap { ruleID -> NumberedRule? in
        guard state.keys[ruleID] == id, let rule = state.rules[ruleID] else { return nil }
        return NumberedRule(id: ruleID, rule: rule, origin: origin, counter: state.counter(ruleID))
      }
      guard !rules.isEmpty else {
        state.keysWithoutRules.insert(id)
        return nil
      }
      let built = KeyCandidates(rules)
      state.candidates[id] = built
      return built
    }
  }
}

/// What an array literal of rules may hold: rules, DSL assignments (unconditional rules),
/// and whole models (their rules are copied).
public protocol RuleModelElement {
  /// Adds the element's rules to `model`.
  func add(to model: RuleModel)
}

extension Rule: RuleModelElement {
  /// Adds the rule to `model`.
  public func add(to model: RuleModel) { model.add(self) }
}

extension RuleModel: RuleModelElement {
  /// Adds this model's rules to `model`, in order (Swift rules not attached yet stay so).
  public func add(to model: RuleModel) {
    let entries = state.withLock { state in
      materializeAll(in: &state)
      return state.order.compactMap { id -> Either? in
        if let rule = state.rules[id] { return .rule(rule) }
        return state.pending[id].map { .swift($0.rule) }
      }
    }
    for entry in entries {
      switch entry {
      case .rule(let rule): model.add(rule)
      case .swift(let rule): model.add(rule)
      }
    }
  }

  private enum Either {
    case rule(Rule)
    case swift(DSLRule)
  }
}

extension RuleModel: CustomStringConvertible {
  /// The rules as canonical rule text, one per line, in order. Rules written in Swift that are
  /// not attached yet name their keys by their usual names.
  public var description: String {
    state.withLock { state in
      materializeAll(in: &state)
      return state.order.compactMap { id in
        state.rules[id]?.description
          ?? state.pending[id].map { $0.rule.printed(in: state.registry) }
      }.joined(separator: "\n")
    }
  }
}
