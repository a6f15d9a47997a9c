/// Where rendered text goes: a string, or standard output as it is written.
public protocol TextOutput: AnyObject {
  /// Appends `text`.
  func write(_ text: String)
}

/// Collects rendered text in memory.
public final class StringOutput: TextOutput {
  /// What has been written.
  public private(set) var text = ""
  /// An empty output.
  public init() {}
  public func write(_ text: String) { self.text += text }
}

/// Turns a view tree into text for one medium; chosen by the `platform` key.
public protocol PageRenderer {
  /// Writes `node` (usually a ``ViewNode/page(_:)``) to `output`, ending with a line break.
  func render(_ node: ViewNode, to output: any TextOutput) throws
}

/// The renderers by `platform` value.
public enum Renderers {
  /// The platforms with a renderer.
  public static let platforms = ["terminal", "markdown", "json"]

  /// The renderer for `platform` at `width` columns (nil: no limit); unknown platforms render
  /// as `terminal`.
  public static func renderer(for platform: String, width: Int?) -> any PageRenderer {
    switch platform {
    case "json": JSONRenderer()
    case "markdown": MarkdownRenderer()
    default: TerminalRenderer(width: width)
    }
  }
}
