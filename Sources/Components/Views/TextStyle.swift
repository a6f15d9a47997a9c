/// A style for text, by meaning rather than by medium: each renderer shows it its own way
/// (a terminal with ANSI codes when attached and `NO_COLOR` is unset, HTML with classes,
/// Markdown with `**` and `_`, JSON as a `style` field).
///
/// ```swift
/// Text("overdue").bold().foregroundStyle(.red)
/// ```
public struct TextStyle: Sendable, Hashable {
  /// Heavier text.
  public var bold = false
  /// Slanted text.
  public var italic = false
  /// Fixed-width text (a code, a key).
  public var monospaced = false
  /// The text's colour, nil for the medium's own.
  public var color: StyleColor?

  /// No style.
  public init() {}

  /// Whether the style changes nothing.
  public var isPlain: Bool { self == TextStyle() }

  /// `self` with `inner`'s settings added: an inner view's colour wins.
  public func adding(_ inner: TextStyle) -> TextStyle {
    var style = self
    style.bold = bold || inner.bold
    style.italic = italic || inner.italic
    style.monospaced = monospaced || inner.monospaced
    style.color = inner.color ?? color
    return style
  }

  /// The style's names, in a fixed order: `bold`, `italic`, `monospaced`, then the colour's
  /// (what JSON lists and HTML classes are made of).
  public var names: [String] {
    var names: [String] = []
    if bold { names.append("bold") }
    if italic { names.append("italic") }
    if monospaced { names.append("monospaced") }
    if let color { names.append(color.rawValue) }
    return names
  }
}

/// The colours a style can give text: the few every medium can show, by the names SwiftUI
/// uses.
public enum StyleColor: String, Sendable, Hashable, CaseIterable {
  /// Something wrong or removed.
  case red
  /// Something right or added.
  case green
  /// Something to look at.
  case yellow
  /// Less important text.
  case secondary
}

/// A view shown in a style: what the style modifiers make.
public struct StyledView<Content: D2SView>: PrimitiveView {
  let content: Content
  let style: TextStyle

  public func node(in scope: ViewScope) throws -> ViewNode {
    let inner = try content.resolve(in: scope)
    if case .empty = inner { return .empty }
    // One style per node: a modifier on a styled view adds to its style.
    if case .styled(let innerStyle, let node) = inner {
      return .styled(style.adding(innerStyle), node)
    }
    return .styled(style, inner)
  }
}

extension D2SView {
  /// The view in bold.
  public func bold() -> StyledView<Self> { styled { $0.bold = true } }
  /// The view in italics.
  public func italic() -> StyledView<Self> { styled { $0.italic = true } }
  /// The view in a fixed-width font.
  public func monospaced() -> StyledView<Self> { styled { $0.monospaced = true } }
  /// The view in `color` (`.red`, `.green`, `.yellow`, `.secondary`).
  public func foregroundStyle(_ color: StyleColor) -> StyledView<Self> {
    styled { $0.color = color }
  }

  private func styled(_ change: (inout TextStyle) -> Void) -> StyledView<Self> {
    var style = TextStyle()
    change(&style)
    return StyledView(content: self, style: style)
  }
}
