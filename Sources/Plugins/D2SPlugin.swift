import Components
import EnvKeys
import RuleCore

/// A package's contribution to D2S: exposed keys, components under looks, formatters by name,
/// and rules (Swift or text).
///
/// ```swift
/// struct RatingPlugin: D2SPlugin {
///   let name = "Rating"
///   func exposeKeys(in registry: D2SContextKVC) throws { try registry.expose(StarsKey.self) }
///   var components: [PluginComponent] { [PluginComponent(look: "BasicLook", DisplayStars())] }
///   var ruleText: String? { "propertyKey = 'rating' AND task = 'edit' => component = 'EditRating'" }
/// }
/// ```
public protocol D2SPlugin: Sendable {
  /// The plugin's name, unique among installed plugins.
  var name: String { get }
  /// Exposes the plugin's keys (and nothing else).
  func exposeKeys(in registry: D2SContextKVC) throws
  /// Components to register, each under a look (a new one or an existing one).
  var components: [PluginComponent] { get }
  /// Formatters by name.
  var formatters: [String: any ValueFormatter] { get }
  /// The names among ``formatters`` that replace a formatter of the same name another plugin
  /// (the builtin one included) registered: `["percent"]`. Any other name taken is a
  /// ``PluginError``.
  var replacedFormatters: Set<String> { get }
  /// Renderers for `platform` values of the plugin's own (`tsv`).
  var renderers: [PluginRenderer] { get }
  /// Rules as text, parsed against the registry once the keys are exposed.
  var ruleText: String? { get }
  /// A rules file shipped as a resource of the plugin's package, read when the plugin is
  /// installed (after ``ruleText``): a file not found stops the install with a
  /// ``PluginError`` naming where it looked and `D2S_RESOURCES`, so the rules never vanish
  /// silently.
  var ruleResource: PluginResource? { get }
  /// Rules in Swift (after the text rules), named against the registry the plugin is
  /// installed in: `[\.isAuditLogged == true => \.auditLabel <= \.displayNameForEntity]`.
  var rules: RuleModel { get }
}

extension D2SPlugin {
  /// Exposes nothing.
  public func exposeKeys(in registry: D2SContextKVC) throws {}
  /// None.
  public var components: [PluginComponent] { [] }
  /// None.
  public var formatters: [String: any ValueFormatter] { [:] }
  /// None.
  public var replacedFormatters: Set<String> { [] }
  /// None.
  public var renderers: [PluginRenderer] { [] }
  /// None.
  public var ruleText: String? { nil }
  /// None.
  public var ruleResource: PluginResource? { nil }
  /// None.
  public var rules: RuleModel { RuleModel() }
}
