/// Rules written in Swift that cannot become rules in the registry of the engine a model was
/// attached to: each with its place in the Swift source and the reason.
///
/// ```
/// 1 rule written in Swift cannot be used:
///   Tests/MyRules.swift:12: the key MyApp.StarsKey is not exposed in this engine's registry (…)
///     in: propertyKey = 'rating' => <MyApp.StarsKey> = 5
/// ```
public struct RuleDSLError: Error, Sendable, CustomStringConvertible {
  /// One rule that cannot be used.
  public struct Failure: Sendable, CustomStringConvertible {
    /// The rule as text, as far as it can be printed.
    public let rule: String
    /// Where it is written.
    public let location: RuleLocation
    /// Why it cannot be used.
    public let reason: String

    /// `FILE:LINE: reason`, then the rule.
    public var description: String { "\(location): \(reason)\n    in: \(rule)" }
  }

  /// Every rule that cannot be used, in model order.
  public let failures: [Failure]

  /// A summary line, then one entry per failing rule.
  public var description: String {
    let count = failures.count == 1 ? "1 rule" : "\(failures.count) rules"
    return "\(count) written in Swift cannot be used:\n"
      + failures.map { "  \($0)" }.joined(separator: "\n")
  }
}
