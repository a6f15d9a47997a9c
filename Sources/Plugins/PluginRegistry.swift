import Components
import EnvKeys
import RuleCore
import Synchronization

/// Installs plugins into the registries a REPL or an app uses: keys, looks, formatters,
/// renderers, and
/// one fallback rule model per plugin. Installing is explicit and idempotent; conflicts are
/// ``PluginError``s naming both plugins. The builtin keys, `BasicLook` and formatters are the
/// plugin named `builtin`.
public final class PluginRegistry: Sendable {
  /// The exposed keys of every installed plugin.
  public let keys: D2SContextKVC
  /// The looks and their components.
  public let looks: LookRegistry
  /// The formatters by name.
  public let formatters: FormatterRegistry
  /// The renderers by platform.
  public let renderers: RendererRegistry
  /// The named computations rules call (`@name`).
  public let computations: RuleComputations

  private struct State {
    var installed: [String] = []
    var ruleModels: [RuleModel] = []
    var keyOwners: [String: String] = [:]
    var componentOwners: [String: String] = [:]  // "look/name" → plugin
    var formatterOwners: [String: String] = [:]
    var rendererOwners: [String: String] = [:]
  }
  private let state = Mutex(State())

  /// Empty registries with the builtin plugin installed (through ``install(_:)``).
  public init() throws {
    self.keys = D2SContextKVC()
    self.looks = LookRegistry(empty: true)
    self.formatters = FormatterRegistry(empty: true)
    self.renderers = RendererRegistry(empty: true)
    self.computations = RuleComputations()
    D2SComputations.register(in: computations)
    try install(BuiltinPlugin())
  }

  /// The installed plugins' names, in installation order (`builtin` first).
  public var installed: [String] { state.withLock { $0.installed } }

  /// The plugins' rule models, in installation order: fallbacks after the user's rules.
  public var ruleModels: [RuleModel] { state.withLock { $0.ruleModels } }

  /// Installs `plugin`; a plugin of the same name already installed is left as it is.
  public func install(_ plugin: any D2SPlugin) throws {
    if state.withLock({ $0.installed.contains(plugin.name) }) { return }
    // Keys first, into a scratch registry, so a conflict leaves nothing half-installed.
    let scratch = D2SContextKVC()
    try plugin.exposeKeys(in: scratch)
    let owners = state.withLock { $0.keyOwners }
    // Each read once: a plugin's lists are computed properties, and the builtin one makes
    // every view of BasicLook.
    let exposed = scratch.allKeys
    let components = plugin.components
    let formatters = plugin.formatters
    let renderers = plugin.renderers
    for key in exposed {
      if let existing = keys.key(named: key.name), existing.id != key.id {
        throw PluginError(
          code: .keyConflict,
          message:
            "plugin \(plugin.name) exposes '\(key.name)' for another key than plugin \(owners[key.name] ?? "?") does"
        )
      }
    }
    // A type that declares its name is registered under it: the name is written once. A
    // type that does not may take other names (one view under two names with two settings).
    // BasicLook's views are internal types under the names rules use, and a type's name is
    // dear to read (the runtime demangles it): the builtin plugin is not checked.
    let isBuiltin = plugin.name == BuiltinPlugin().name
    for component in components where !isBuiltin {
      let view = type(of: component.component)
      let declared = view.componentName
      // Under its declared name (the usual case, read once), or the type declares none.
      guard component.name != declared, declared != String(describing: view) else { continue }
      throw PluginError(
        code: .componentNameMismatch,
        message:
          "plugin \(plugin.name) registers \(String(describing: view)) as component '\(component.name)', but the type declares its name as '\(declared)' (rules in Swift assign it so): register it with PluginComponent(look:_:)"
      )
    }
    let componentOwners = state.withLock { $0.componentOwners }
    for component in components where !component.replaces {
      if let owner = componentOwners["\(component.look)/\(component.name)"], owner != plugin.name {
        throw PluginError(
          code: .componentConflict,
          message:
            "plugin \(plugin.name) registers component '\(component.name)' in look '\(component.look)', which plugin \(owner) registered (say `replaces: true` to replace it)"
        )
      }
    }
    let formatterOwners = state.withLock { $0.formatterOwners }
    let replaced = plugin.replacedFormatters
    for name in formatters.keys.sorted() where !replaced.contains(name) {
      if let owner = formatterOwners[name] {
        throw PluginError(
          code: .formatterConflict,
          message:
            "plugin \(plugin.name) registers formatter '\(name)', which plugin \(owner) registered: name yours otherwise, or replace \(owner)'s by declaring `var replacedFormatters: Set<String> { [\"\(name)\"] }` in the plugin (`formatters` lists every formatter)"
        )
      }
    }
    let rendererOwners = state.withLock { $0.rendererOwners }
    for renderer in renderers {
      if let owner = rendererOwners[renderer.platform] {
        throw PluginError(
          code: .rendererConflict,
          message:
            "plugin \(plugin.name) registers a renderer for platform '\(renderer.platform)', which plugin \(owner) registered"
        )
      }
    }
    for key in exposed where keys.key(named: key.name) == nil { try keys.expose(key) }
    let model = RuleModel(
      origin: plugin.name == BuiltinPlugin().name ? .builtin : .plugin(plugin.name))
    var texts = plugin.ruleText.map { [(text: $0, file: "plugin \(plugin.name)")] } ?? []
    if let resource = plugin.ruleResource {
      do {
        texts.append((try resource.text(), "plugin \(plugin.name) \(resource.file)"))
      } catch {
        throw PluginError(
          code: .missingResource, message: "plugin \(plugin.name)'s rules: \(error)")
      }
    }
    for (text, file) in texts {
      do {
        try model.load(
          text, file: file,
          parser: RuleParser(registry: keys, computations: computations))
      } catch {
        throw PluginError(code: .invalidRules, message: "plugin \(plugin.name)'s rules: \(error)")
      }
    }
    plugin.rules.add(to: model)
    do {
      try model.attach(to: keys)
    } catch {
      throw PluginError(
        code: .invalidRules, message: "plugin \(plugin.name)'s Swift rules: \(error)")
    }
    for component in components {
      looks.register(component.component, as: component.name, look: component.look)
    }
    for (name, formatter) in formatters { self.formatters.register(formatter, as: name) }
    for renderer in renderers { self.renderers.register(renderer.make, for: renderer.platform) }
    state.withLock { state in
      state.installed.append(plugin.name)
      if model.count > 0 { state.ruleModels.append(model) }
      for key in exposed {
        state.keyOwners[key.name] = state.keyOwners[key.name] ?? plugin.name
      }
      for component in components {
        state.componentOwners["\(component.look)/\(component.name)"] = plugin.name
      }
      for name in formatters.keys { state.formatterOwners[name] = plugin.name }
      for renderer in renderers { state.rendererOwners[renderer.platform] = plugin.name }
    }
  }

  /// Every formatter by name, with the plugin that registered it (`builtin` for D2S's own),
  /// sorted by name.
  public var formatterOwners: [(name: String, plugin: String)] {
    state.withLock { $0.formatterOwners }.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
  }

  /// The rule models of the installed plugin `name` for `lint` (``ruleModels(ofPlugin:in:)``):
  /// never none, since "no warnings" over no rules would hide rules that were not found.
  /// - Throws: ``PluginError`` when no plugin of that name is installed, or it has no rules.
  public func ruleModelsToLint(ofPlugin name: String, in engine: RuleEngine) throws
    -> [RuleModel]
  {
    let models = try ruleModels(ofPlugin: name, in: engine)
    guard models.contains(where: { $0.count > 0 }) else {
      throw PluginError(
        code: .noRules,
        message:
          "plugin \(name) has no rules to lint: its ruleText, ruleResource and rules gave none (a rules file it reads itself may not have been found; PluginResource names where it looks, and D2S_RESOURCES another folder)"
      )
    }
    return models
  }

  /// The rule models in `engine` that come from the installed plugin `name` (the builtin
  /// one's for `builtin`): none when it adds no rules.
  /// - Throws: ``PluginError`` when no plugin of that name is installed.
  public func ruleModels(ofPlugin name: String, in engine: RuleEngine) throws -> [RuleModel] {
    guard installed.contains(name) else {
      throw PluginError(
        code: .unknownPlugin,
        message:
          "no plugin named '\(name)' is installed (installed: \(installed.joined(separator: ", ")))"
      )
    }
    let origin: RuleOrigin = name == BuiltinPlugin().name ? .builtin : .plugin(name)
    return engine.models.filter { $0.origin == origin }
  }

  /// A rule engine over `rules`, then every plugin's rules, then the builtin default rules.
  public func makeEngine(rules: RuleModel = RuleModel()) throws -> RuleEngine {
    let builtin = try D2SEngine.defaultRuleModel(registry: keys, computations: computations)
    return try RuleEngine(
      ruleModel: rules, fallbacks: ruleModels + [builtin], registry: keys,
      computations: computations)
  }
}
