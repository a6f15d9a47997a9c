import Components
import D2SHTML
import EnvKeys

/// D2S's own contribution, installed through the same API as any plugin: the builtin keys,
/// BasicLook's components, the builtin formatters and renderers. (The default rule model is not part of
/// it: it is always the last fallback, after every plugin's rules.)
public struct BuiltinPlugin: D2SPlugin {
  /// The builtin plugin.
  public init() {}
  /// `builtin`.
  public let name = "builtin"

  /// Exposes the D2S keys.
  public func exposeKeys(in registry: D2SContextKVC) throws { try D2SKeys.expose(in: registry) }

  /// BasicLook's components.
  public var components: [PluginComponent] {
    BasicLook.allComponents.map { PluginComponent($0.name, look: BasicLook.name, $0.component) }
  }

  /// The builtin renderers, and HTML.
  public var renderers: [PluginRenderer] {
    RendererRegistry.builtin.map { PluginRenderer($0.platform, make: $0.make) }
      + [PluginRenderer("html", make: { HTMLRenderer(options: $0) })]
  }

  /// The builtin formatters.
  public var formatters: [String: any ValueFormatter] {
    Dictionary(
      FormatterRegistry.builtin.map { ($0.name, $0.formatter) }, uniquingKeysWith: { a, _ in a })
  }
}
