import EnvKeys
import RuleCore

extension D2SKeys {
  /// The front end a request comes from: `mcp` for an agent's tool call (so rules can treat
  /// agents differently: `client = 'mcp' AND entity.name = 'Payment' => isEntityReachable =
  /// false`); empty for a person's REPL or browser.
  public enum Client: DynamicEnvironmentKey {
    public static var defaultValue: String { "" }
    public static let exposedName: String? = "client"
  }

  /// What an agent's edit, new and delete do: `propose` (the default: a change a person
  /// approves), `write` (saved at once, under the same permissions and lock as a person's),
  /// or `none` (refused).
  public enum AgentWrites: DynamicEnvironmentKey {
    public static var defaultValue: String { "propose" }
    public static let exposedName: String? = "agentWrites"
  }

  /// Exposes the agents' keys to rule text.
  static func exposeAgentKeys(in registry: D2SContextKVC) throws {
    try registry.expose(Client.self)
    try registry.expose(AgentWrites.self)
  }
}

extension RuleContext {
  /// ``D2SKeys/Client``.
  public var client: String {
    get { self[D2SKeys.Client.self] }
    set { self[D2SKeys.Client.self] = newValue }
  }

  /// ``D2SKeys/AgentWrites``.
  public var agentWrites: String {
    get { self[D2SKeys.AgentWrites.self] }
    set { self[D2SKeys.AgentWrites.self] = newValue }
  }
}
