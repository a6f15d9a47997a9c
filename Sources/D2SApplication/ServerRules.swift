import Plugins

/// The rule the servers (d2s-serve, d2s-mcp) add beneath the user's: a visitor or agent that
/// has not logged in never writes (`user = nil => isEntityReadOnly = true ; fallback`; a rule
/// of the user's may open writes). A plugin of its own, so that the user's rules keep the
/// numbers the REPL gives them (`rule 1` is the first of theirs) and this one reads
/// `server:1`. Installed before every other plugin: as when it was the user's, no plugin's
/// rule outranks it (the user's rules do).
public struct ServerRules: D2SPlugin {
  /// The plugin.
  public init() {}
  /// `server`.
  public let name = "server"
  /// The rule.
  public var ruleText: String? { "user = nil => isEntityReadOnly = true ; fallback" }
}
