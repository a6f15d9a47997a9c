/// BasicLook's text for a terminal: titles underlined, rows aligned, tables fitted to the
/// width (when there is one) and streamed row by row.
public struct TerminalRenderer: PageRenderer {
  /// Columns available; nil for no limit.
  public var width: Int?
  /// Whether styled text gets ANSI codes (a terminal attached, `NO_COLOR` unset).
  public var styles: Bool

  /// A renderer for `width` columns (nil: no limit), with ANSI styles when `styles`.
  public init(width: Int?, styles: Bool = false) {
    self.width = width
    self.styles = styles
  }

  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    try write(node, to: output)
  }

  /// Writes `node` line by line; a table's rows stream.
  private func write(_ node: ViewNode, to output: any TextOutput) throws {
    switch node {
    case .stack(let children):
      for child in children { try write(child, to: output) }
    case .table(let table):
      try TableLayout(table: table, width: width, styles: styles).write(to: output)
    case .page(let page):
      if page.showsTitle {
        let title = TerminalText.escaped(page.title)
        output.write(
          title + "\n" + String(repeating: "=", count: max(1, TextWidth.of(title))) + "\n")
      }
      try write(page.content, to: output)
      let footer = lines(page.footer)
      if !footer.isEmpty { output.write("\n" + footer.joined(separator: "\n") + "\n") }
    default:
      for line in lines(node) { output.write(line + "\n") }
    }
  }

  /// The lines of `node` (a table's rows read whole), escaped and wrapped for a terminal;
  /// `labelWidth` is the label column of the row it is in, which wrapped values leave free.
  public func lines(_ node: ViewNode, labelWidth: Int = 0) -> [String] {
    let ansi: @Sendable (String, TextStyle) -> String = { TerminalText.styled($0, $1) }
    let style = styles ? ansi : nil
    return TextLines(width: width, escape: { TerminalText.escaped($0) }, style: style).lines(
      node, labelWidth: labelWidth)
  }
}

extension ViewNode {
  /// The node's text on one line, as it is (no renderer's escaping): what a table cell
  /// shows, its lines joined by spaces; each renderer escapes it as its medium needs.
  public var cellText: String {
    if case .value(let shown, _) = self { return shown.text }
    return TextLines.plain.lines(self).joined(separator: " ")
  }

  /// The style a table cell made of the node shows: the node's own when it is styled as a
  /// whole (a cell is one line of one style), else nil.
  public var cellStyle: TextStyle? {
    switch self {
    case .styled(let style, _): style.isPlain ? nil : style
    case .tagged(_, let inner): inner.cellStyle
    default: nil
    }
  }

  /// The first value the node shows (in a line, a stack or a tag), or nil when it shows
  /// none: a component that draws text of its own (a password's dots) never passes its value
  /// on.
  public var shownValue: ShownValue? {
    switch self {
    case .value(let shown, _): shown
    case .editField(let field): field.value
    case .tagged(_, let inner), .styled(_, let inner): inner.shownValue
    case .line(let items, _), .stack(let items): items.lazy.compactMap(\.shownValue).first
    default: nil
    }
  }
}
