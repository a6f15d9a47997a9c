import Components

/// A renderer a plugin registers for a `platform` value: `platform = 'tsv'` in rules,
/// `--format tsv` on the command line.
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
