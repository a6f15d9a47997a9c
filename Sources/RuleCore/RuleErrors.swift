/// A rule resolution that needs the key it is resolving, in the same context.
public struct RuleCycleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The keys in the order they were needed, ending with the repeated one:
  /// `["title", "navigationBarTitle", "title"]`.
  public var chain: [String]
  public var description: String {
    "rule cycle: \(chain.joined(separator: " → ")) (a rule's value needs the key it assigns)"
  }
}

/// A computation named by a rule failed, or is not registered.
public struct RuleComputationError: Error, Sendable, CustomStringConvertible {
  public var name: String
  public var message: String
  public var description: String { "@\(name): \(message)" }
}

/// A key name that no key is exposed under.
public struct UnknownKeyError: Error, Sendable, Equatable, CustomStringConvertible {
  public var name: String
  public var suggestions: [String]
  public var description: String {
    var text = "unknown key '\(name)'"
    if !suggestions.isEmpty {
      text += " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
    }
    return text
  }
}
