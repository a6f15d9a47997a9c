import RuleCore
import Synchronization

/// What a renderer is made with for one page.
public struct RenderOptions: Sendable {
  /// The page's width in columns; nil for no limit (scripts).
  public var width: Int?
  /// Whether text styles show as the medium's codes where they need a terminal's consent
  /// (ANSI codes: a terminal attached and `NO_COLOR` unset).
  public var styles: Bool
  /// The page's rule context (its database, entity, object and user), for a renderer whose
  /// output names them (HTML's links); nil outside a page.
  public var context: RuleContext?
  /// How the `csv` platform writes values.
  public var csv: CSVOptions

  /// Options for a page of `width` columns.
  public init(
    width: Int?, styles: Bool = false, context: RuleContext? = nil, csv: CSVOptions = CSVOptions()
  ) {
    self.width = width
    self.styles = styles
    self.context = context
    self.csv = csv
  }
}

/// Makes a platform's renderer for one page.
public typealias RendererFactory = @Sendable (RenderOptions) -> any PageRenderer

/// The renderers by `platform` name, registered like looks: the builtin `terminal`,
/// `markdown`, `json` and `csv`, and those plugins add (`PluginRenderer`).
public final class RendererRegistry: Sendable {
  private let table = Mutex<[String: RendererFactory]>([:])

  /// A registry with the builtin renderers (or, with `empty`, none).
  public init(empty: Bool = false) {
    if !empty { for (platform, make) in Self.builtin { register(make, for: platform) } }
  }

  /// The builtin renderers by platform.
  public static var builtin: [(platform: String, make: RendererFactory)] {
    [
      ("terminal", { TerminalRenderer(width: $0.width, styles: $0.styles) }),
      ("markdown", { _ in MarkdownRenderer() }),
      ("json", { _ in JSONRenderer() }),
      ("csv", { CSVRenderer(options: $0.csv) }),
    ]
  }

  /// Registers `make` for `platform` (replacing an earlier one).
  public func register(_ make: @escaping RendererFactory, for platform: String) {
    table.withLock { $0[platform] = make }
  }

  /// The platforms with a renderer, sorted.
  public var platforms: [String] { table.withLock { $0.keys.sorted() } }

  /// The renderer for `platform`.
  ///
  /// - Throws: ``UnknownPlatformError`` naming the known platforms.
  public func renderer(for platform: String, options: RenderOptions) throws -> any PageRenderer {
    guard let make = table.withLock({ $0[platform] }) else {
      throw UnknownPlatformError(platform: platform, known: platforms)
    }
    return make(options)
  }
}

/// A `platform` no renderer is registered for.
public struct UnknownPlatformError: Error, Sendable, CustomStringConvertible {
  /// The platform asked for.
  public var platform: String
  /// The platforms there are renderers for.
  public var known: [String]
  public var description: String {
    "unknown platform '\(platform)' (known: \(known.joined(separator: ", ")))"
  }
}
