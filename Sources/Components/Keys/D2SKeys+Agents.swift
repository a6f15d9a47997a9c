import EnvKeys
import RuleCore

extension D2SKeys {
  /// The front end a request comes from: `mcp` for an agent's tool call (so rules can treat
  /// agents differently: `client = 'mcp' AND entity.name = 'Payment' => isEntityReachable =
  /// false`); empty for a person's REPL or browser.
  public enum Client: DynamicEnvironmentKey {
    /// Empty: a person.
    public static var defaultValue: String { "" }
    /// `client` in rule text.
    public static let exposedName: String? = "client"
  }

  /// What an agent's edit, new and delete do: `propose` (the default: a change a person
  /// approves), `write` (saved at once, under the same permissions and lock as a person's),
  /// or `none` (refused).
  public enum AgentWrites: DynamicEnvironmentKey {
    /// `propose`: a person approves agents' changes unless a rule says otherwise.
    public static var defaultValue: String { "propose" }
    /// `agentWrites` in rule text.
    public static let exposedName: String? = "agentWrites"
  }

  /// Whether the user may see why the rules decided what they did (an agent's `why_not` tool):
  /// false unless a rule says so (`user.username = 'Mike' => mayExplain = true`), as
  /// explanations show rules, which can hold what the pages do not.
  public enum MayExplain: DynamicEnvironmentKey {
    /// False: explanations are granted by a rule.
    public static var defaultValue: Bool { false }
    /// `mayExplain` in rule text.
    public static let exposedName: String? = "mayExplain"
  }

  /// Whether the user may change the rules from a page (d2s-serve's rule assistant, on with
  /// `--rules-output FILE`): an administrator's key. A rule can grant anything, including
  /// what this key keeps from others, so give it to administrators only; it is never true for
  /// an anonymous visitor, whatever the rules say.
  public enum MayEditRules: DynamicEnvironmentKey {
    /// False: changing rules is granted by a rule.
    public static var defaultValue: Bool { false }
    /// `mayEditRules` in rule text.
    public static let exposedName: String? = "mayEditRules"
  }

  /// Exposes the agents' keys to rule text.
  static func exposeAgentKeys(in registry: D2SContextKVC) throws {
    try registry.expose(Client.self)
    try registry.expose(AgentWrites.self)
    try registry.expose(MayExplain.self)
    try registry.expose(MayEditRules.self)
  }
}

extension RuleContext {
  /// ``D2SKeys/Client``.
  public var client: String {
    get { self[D2SKeys.Client.self] }
    set { self[D2SKeys.Client.self] = newValue }
  }

  /// ``D2SKeys/MayExplain``.
  public var mayExplain: Bool {
    get { self[D2SKeys.MayExplain.self] }
    set { self[D2SKeys.MayExplain.self] = newValue }
  }

  /// ``D2SKeys/MayEditRules``.
  public var mayEditRules: Bool {
    get { self[D2SKeys.MayEditRules.self] }
    set { self[D2SKeys.MayEditRules.self] = newValue }
  }

  /// ``D2SKeys/AgentWrites``.
  public var agentWrites: String {
    get { self[D2SKeys.AgentWrites.self] }
    set { self[D2SKeys.AgentWrites.self] = newValue }
  }
}
