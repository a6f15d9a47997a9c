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
  /// Renderers for `platform` values of the plugin's own (`csv`).
  var renderers: [PluginRenderer] { get }
  /// Rules as text, parsed against the registry once the keys are exposed.
  var ruleText: String? { get }
  /// Rules in Swift (after the text rules), named against the registry the plugin is
  /// installed in: `[\.isAuditLogged == true => \.auditLabel <= \.displayNameForEntity]`.
  var rules: RuleModel { get }
}

extension D2SPlugin {
  public func exposeKeys(in registry: D2SContextKVC) throws {}
  public var components: [PluginComponent] { [] }
  public var formatters: [String: any ValueFormatter] { [:] }
  public var renderers: [PluginRenderer] { [] }
  public var ruleText: String? { nil }
  public var rules: RuleModel { RuleModel() }
}

/// A component a plugin registers: its look, the view, and whether it replaces a component
/// of that name another plugin registered. Its name is the view type's
/// (``D2SView/componentName``), so rules in text and in Swift name it alike:
///
/// ```swift
/// PluginComponent(look: "BasicLook", DisplayStars())  // component = 'DisplayStars'
/// ```
public struct PluginComponent: Sendable {
  /// The name rules use.
  public let name: String
  /// The look it belongs to.
  public let look: String
  /// The view.
  public let component: any D2SView
  /// Whether it replaces a component of that name another plugin registered.
  public let replaces: Bool

  /// `component` in `look`, under its type's name.
  public init(look: String, _ component: some D2SView, replaces: Bool = false) {
    self.init(type(of: component).componentName, look: look, component, replaces: replaces)
  }

  /// `component` in `look` under `name`: a name of its own for a type that does not declare
  /// one (one view under two names, with two settings); for a type that declares its
  /// ``D2SView/componentName``, that name, or installing the plugin fails.
  public init(_ name: String, look: String, _ component: any D2SView, replaces: Bool = false) {
    self.name = name
    self.look = look
    self.component = component
    self.replaces = replaces
  }
}

/// A renderer a plugin registers for a `platform` value: `platform = 'csv'` in rules,
/// `--format csv` on the command line.
public struct PluginRenderer: Sendable {
  /// The platform name.
  public let platform: String
  /// Makes the renderer for one page.
  public let make: RendererFactory
  /// A renderer for `platform`, made by `make` for each page.
  public init(_ platform: String, make: @escaping RendererFactory) {
    self.platform = platform
    self.make = make
  }
}

/// Two plugins that claim the same name.
public struct PluginError: Error, Sendable, CustomStringConvertible {
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
  }
  public var code: Code
  public var message: String
  public var description: String { message }
}
