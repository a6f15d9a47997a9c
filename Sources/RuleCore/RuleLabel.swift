/// The label that names a rule in tools (`why-not`, `rules --all`, `lint`, `coverage`): `N`
/// for the user's rules, `PLUGIN:N` for a plugin's, `builtin:N` for the default rules, each
/// numbered from 1 in the order its model loaded them.
extension NumberedRule {
  /// `3`, `AuditKeys:2` or `builtin:12`.
  public var label: String {
    switch origin {
    case .user: "\(id)"
    case .builtin: "builtin:\(id)"
    case .plugin(let name): "\(name):\(id)"
    }
  }

  /// `rule 3`, `rule AuditKeys:2`, `rule builtin:12`: how tools name the rule in a sentence.
  public var labelPhrase: String { "rule \(label)" }
}

/// A label that names no rule, or is not a label.
public struct RuleLabelError: Error, Sendable, CustomStringConvertible {
  /// The label as typed.
  public var label: String
  /// What is wrong with it.
  public var reason: String
  public var description: String { "no rule \(label): \(reason)" }
}

extension RuleEngine {
  /// Every rule of every model, the user's first, then the fallbacks in order.
  public var allRules: [NumberedRule] { models.flatMap(\.rules) }

  /// The rule a label names: `N` (a user rule), `PLUGIN:N` or `builtin:N`.
  /// - Throws: ``RuleLabelError`` for a malformed label or one that names no rule.
  public func rule(labelled label: String) throws(RuleLabelError) -> NumberedRule {
    let parts = label.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let id = parts.last.flatMap({ Int($0) }), id > 0 else {
      throw RuleLabelError(
        label: label, reason: "a label is N, PLUGIN:N or builtin:N (see `rules --all`)")
    }
    let model: RuleModel?
    if parts.count == 1 {
      model = ruleModel
    } else {
      let name = parts[0].lowercased()
      model = models.first { model in
        switch model.origin {
        case .user: false
        case .builtin: name == "builtin"
        case .plugin(let plugin): plugin.lowercased() == name
        }
      }
      guard model != nil else {
        throw RuleLabelError(
          label: label, reason: "no plugin \(parts[0]) has rules (see `plugins`)")
      }
    }
    guard let model, let found = model.rules.first(where: { $0.id == id }) else {
      throw RuleLabelError(label: label, reason: "there is no such rule (see `rules --all`)")
    }
    return found
  }
}
