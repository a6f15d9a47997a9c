import EnvKeys
import Qualifiers

/// Why a rule did or did not give its key's value in a context (`why-not LABEL`).
public enum RuleWhyNot: Sendable, CustomStringConvertible {
  /// The rule wins: `rule N wins: KEY = VALUE`.
  case wins(NumberedRule, value: String)
  /// A clause of its predicate is false here; `actual` names each key path's value.
  case doesNotMatch(NumberedRule, clause: Qualifier, actual: [(path: String, value: String)])
  /// It matches, but `winner` ranks higher, for `reason`.
  case outranked(NumberedRule, winner: NumberedRule, reason: String, explicitKey: String?)
  /// It matches, but its value cannot be used (`skipped: …` in `explain`).
  case skipped(NumberedRule, reason: String)
  /// It would win, but its key is set explicitly in the context.
  case setExplicitly(NumberedRule)

  /// The rule asked about.
  public var rule: NumberedRule {
    switch self {
    case .wins(let r, _), .doesNotMatch(let r, _, _), .outranked(let r, _, _, _),
      .skipped(let r, _),
      .setExplicitly(let r):
      r
    }
  }

  /// One or two lines, as `why-not` prints them.
  public var description: String {
    let name = rule.labelPhrase
    switch self {
    case .wins(let r, let value):
      return "\(name) wins: \(r.rule.key.name) = \(value)"
    case .doesNotMatch(_, let clause, let actual):
      let values = actual.map { "\($0.path) = \($0.value)" }.joined(separator: ", ")
      return "\(name) does not match: \(clause) is false here"
        + (values.isEmpty ? "" : " (\(values))")
    case .outranked(_, let winner, let reason, let explicitKey):
      let line = "\(name) matches, but \(winner.labelPhrase) ranks higher (\(reason))"
      guard let explicitKey else { return line }
      return line + "\nand \(explicitKey) is set explicitly here, so no rule is consulted"
    case .skipped(_, let reason):
      return "\(name) is skipped: \(reason)"
    case .setExplicitly(let r):
      return "\(name) would win, but \(r.rule.key.name) is set explicitly here"
    }
  }
}

extension RuleContext {
  /// Why `numbered` does or does not answer its key in this context.
  ///
  /// - Throws: errors of nested look-ups (a rule cycle, a missing computation).
  public func whyNot(_ numbered: NumberedRule) throws -> RuleWhyNot {
    let key = numbered.rule.key
    let isExplicit = values.explicitValue(forKeyID: key.id) != nil
    var context = self
    let state = ResolutionState()
    state.isTool = true
    context.state = state
    state.push(key.id, name: key.name)
    defer { _ = state.pop() }
    switch try context.evaluate(numbered, for: key) {
    case .notMatched:
      let clause = context.firstFalseClause(of: numbered.rule.predicate)
      let actual = try clause.keyPaths.uniqued().map { path in
        (path: path.description, value: RuleContext.describe(try context.readKeyPath(path)))
      }
      return .doesNotMatch(numbered, clause: clause, actual: actual)
    case .skipped(let reason):
      return .skipped(numbered, reason: reason)
    case .matched(let value):
      guard let winner = try context.winnerByRules(for: key), winner != numbered else {
        return isExplicit ? .setExplicitly(numbered) : .wins(numbered, value: key.describe(value))
      }
      return .outranked(
        numbered, winner: winner, reason: RuleContext.rankReason(winner, over: numbered),
        explicitKey: isExplicit ? key.name : nil)
    }
  }

  /// The rule that answers `key` here when its explicit value is ignored.
  func winnerByRules(for key: ExposedKey) throws -> NumberedRule? {
    for model in engine.models {
      guard let candidates = model.candidates(for: key.id) else { continue }
      for candidate in candidates.ranked {
        if case .matched = try evaluate(candidate.numbered, for: key) { return candidate.numbered }
      }
    }
    return nil
  }

  /// The first part of `predicate` that is false here, in evaluation order: a conjunct of an
  /// `AND` (looked into when it is an `AND` itself), else the whole predicate.
  func firstFalseClause(of predicate: Qualifier) -> Qualifier {
    guard case .and(let parts) = predicate else { return predicate }
    for part in parts where !part.evaluate(on: self) { return firstFalseClause(of: part) }
    return predicate
  }

  /// Why `winner` is tried before `loser` (both match).
  static func rankReason(_ winner: NumberedRule, over loser: NumberedRule) -> String {
    let (w, l) = (winner.rule, loser.rule)
    if winner.origin != loser.origin {
      return
        "its rules come first: \(RuleContext.modelName(winner.origin)) before \(RuleContext.modelName(loser.origin))"
    }
    if w.priority != l.priority { return "priority \(w.priority) > \(l.priority)" }
    if w.complexity != l.complexity {
      return "same priority, complexity \(w.complexity) > \(l.complexity)"
    }
    return "same rank, \(winner.labelPhrase) was added later"
  }

  static func modelName(_ origin: RuleOrigin) -> String {
    switch origin {
    case .user: "user rules"
    case .builtin: "builtin rules"
    case .plugin(let name): "plugin \(name)'s rules"
    }
  }

  /// A value read by a key path, printed as a literal where it has one.
  static func describe(_ value: Any?) -> String {
    guard let value = KVC.unwrap(value) else { return "nil" }
    if let literal = value as? any ContextLiteralConvertible {
      return literal.contextLiteral.description
    }
    return String(describing: value)
  }
}

extension Array where Element: Hashable {
  /// The elements without repeats, in first-seen order.
  fileprivate func uniqued() -> [Element] {
    var seen: Set<Element> = []
    return filter { seen.insert($0).inserted }
  }
}
