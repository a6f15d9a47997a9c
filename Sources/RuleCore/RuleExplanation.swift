import EnvKeys

/// Why a key has its value: every candidate rule in rank order and what happened to it.
public struct RuleExplanation: Sendable, CustomStringConvertible {
  /// What happened to one candidate.
  public enum Status: Sendable, Equatable, CustomStringConvertible {
    case matched
    /// Matched too, with the winner's priority and complexity; the winner was added later.
    case tie(winner: Int)
    case notMatched
    case notReached
    case skipped(String)

    public var description: String {
      switch self {
      case .matched: "matched"
      case .tie(let winner): "matched (tie: rule \(winner) wins, added later)"
      case .notMatched: "not matched"
      case .notReached: "not reached"
      case .skipped(let reason): "skipped: \(reason)"
      }
    }
  }

  /// One candidate rule.
  public struct Entry: Sendable {
    /// 1-based position in the order rules are tried.
    public let rank: Int
    public let rule: NumberedRule
    public let status: Status

    /// `RANK  PRIORITY  COMPLEXITY  STATUS  SOURCE: <rule text>`.
    public var line: String {
      "\(rank)  \(rule.rule.priority)  \(rule.rule.complexity)  \(status)  \(rule)"
    }
  }

  /// The key explained.
  public let key: ExposedKey
  /// Whether the key is set explicitly (rules are then not consulted).
  public let isExplicit: Bool
  /// The candidates, the user's model first, then each fallback model.
  public let entries: [Entry]
  /// The final value and its source.
  public let resolution: RuleResolution

  /// The winning entry, if a rule won.
  public var winner: Entry? {
    entries.first { $0.status == .matched }
  }

  /// `KEY = VALUE  # SOURCE`, the `show` line.
  public var showLine: String {
    "\(key.name) = \(key.describe(resolution.value))  # \(resolution.source)"
  }

  public var description: String {
    if isExplicit { return "set explicitly; rules not consulted\n\(showLine)" }
    var lines = entries.map(\.line)
    lines.append("winner: " + (winner.map { $0.rule.description } ?? "none (default value)"))
    lines.append(showLine)
    return lines.joined(separator: "\n")
  }
}

extension RuleContext {
  /// Explains how the key named `name` resolves in this context.
  public func explain(keyNamed name: String) throws -> RuleExplanation {
    try explain(try exposedKey(named: name))
  }

  /// Explains how `key` resolves: walks every candidate of every model in rank order (no index,
  /// no cache), so each shows `matched`, `not matched`, `not reached` or `skipped: why`.
  public func explain(_ key: ExposedKey) throws -> RuleExplanation {
    if let explicit = values.explicitValue(forKeyID: key.id) {
      return RuleExplanation(
        key: key, isExplicit: true, entries: [],
        resolution: RuleResolution(value: explicit, source: .explicit))
    }
    let state = ResolutionState()
    state.isTool = true
    var context = self
    context.state = state
    state.push(key.id, name: key.name)
    var entries: [RuleExplanation.Entry] = []
    var winner: (KeyCandidates.Candidate, any Sendable)?
    var rank = 0
    for model in engine.models {
      guard let candidates = model.candidates(for: key.id) else { continue }
      for candidate in candidates.ranked {
        rank += 1
        let status: RuleExplanation.Status
        if let (best, _) = winner {
          let tied =
            best.rule.priority == candidate.rule.priority
            && best.rule.complexity == candidate.rule.complexity
            && best.numbered.origin == candidate.numbered.origin
          if tied, case .matched = try context.evaluate(candidate.numbered, for: key) {
            status = .tie(winner: best.numbered.id)
          } else {
            status = .notReached
          }
        } else {
          switch try context.evaluate(candidate.numbered, for: key) {
          case .matched(let value):
            status = .matched
            winner = (candidate, value)
          case .notMatched: status = .notMatched
          case .skipped(let reason): status = .skipped(reason)
          }
        }
        entries.append(RuleExplanation.Entry(rank: rank, rule: candidate.numbered, status: status))
      }
    }
    _ = state.pop()
    let resolution =
      winner.map { RuleResolution(value: $0.1, source: .rule($0.0.numbered)) }
      ?? RuleResolution(value: key.defaultValue, source: .defaultValue)
    return RuleExplanation(key: key, isExplicit: false, entries: entries, resolution: resolution)
  }

  /// The `show` line for the key named `name`: `KEY = VALUE  # SOURCE`.
  public func showLine(forKeyNamed name: String) throws -> String {
    let key = try exposedKey(named: name)
    let resolution = try resolve(id: key.id, exposed: key)
    return "\(key.name) = \(key.describe(resolution.value))  # \(resolution.source)"
  }

  /// Where the value of the key named `name` comes from, as `show` prints it (`set`,
  /// `rule 3: …`, `builtin rule: …`, `default`).
  public func source(forKeyNamed name: String) throws -> String {
    let key = try exposedKey(named: name)
    return "\(try resolve(id: key.id, exposed: key).source)"
  }
}
