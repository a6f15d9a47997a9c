/// Two plugins that claim the same name.
public struct PluginError: Error, Sendable, CustomStringConvertible {
  /// What kind of error it is, for code that handles one.
  public struct Code: Hashable, Sendable {
    let raw: String
    /// One key name exposed for different keys.
    public static let keyConflict = Code(raw: "keyConflict")
    /// One component name registered twice in one look without `replaces`.
    public static let componentConflict = Code(raw: "componentConflict")
    /// One formatter name registered twice.
    public static let formatterConflict = Code(raw: "formatterConflict")
    /// One platform given two renderers.
    public static let rendererConflict = Code(raw: "rendererConflict")
    /// The plugin's rule text does not parse.
    public static let invalidRules = Code(raw: "invalidRules")
    /// A component registered under a name other than the one its type declares.
    public static let componentNameMismatch = Code(raw: "componentNameMismatch")
    /// No installed plugin has the name asked for.
    public static let unknownPlugin = Code(raw: "unknownPlugin")
    /// A resource the plugin names (its ``D2SPlugin/ruleResource``) is in none of the places
    /// searched.
    public static let missingResource = Code(raw: "missingResource")
    /// A plugin asked to be linted has no rules.
    public static let noRules = Code(raw: "noRules")
  }
  /// What kind.
  public var code: Code
  /// What went wrong, naming the plugins.
  public var message: String
  /// The message.
  public var description: String { message }
}
