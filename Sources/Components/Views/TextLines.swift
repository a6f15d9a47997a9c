/// The lines of text a view tree shows, without a medium's styling: what a terminal prints
/// (each text escaped, long values wrapped to a width), and what other renderers take as
/// plain text (``plain``: as it is). Renderers use it; none calls another renderer.
public struct TextLines: Sendable {
  /// Columns that wrapping values fill; nil for no limit.
  public var width: Int?
  /// What each text from the data goes through (a terminal's escaping, or nothing).
  public var escape: @Sendable (String) -> String
  /// How a line of a styled view is shown (ANSI codes, Markdown emphasis), after escaping
  /// and wrapping; nil shows it plain.
  public var style: (@Sendable (String, TextStyle) -> String)?

  /// Lines for `width` columns, each text through `escape`, styled views through `style`.
  public init(
    width: Int?, escape: @escaping @Sendable (String) -> String,
    style: (@Sendable (String, TextStyle) -> String)? = nil
  ) {
    self.width = width
    self.escape = escape
    self.style = style
  }

  /// Texts as they are, nothing wrapped.
  public static let plain = TextLines(width: nil, escape: { $0 })

  /// The lines of `node` (a table's rows read whole); `labelWidth` is the label column of the
  /// row it is in, which wrapped values leave free.
  public func lines(_ node: ViewNode, labelWidth: Int = 0) -> [String] {
    switch node {
    case .empty: return []
    case .text(let text):
      return text.split(separator: "\n", omittingEmptySubsequences: false).map {
        escape(String($0))
      }
    case .message(let text): return [escape(text)]
    case .value(let shown, let wraps):
      let text = escape(shown.text)
      return wraps ? Self.wrap(text, to: max(20, (width ?? 100) - labelWidth - 2)) : [text]
    case .action(let action): return ["(\(action.command))"]
    case .link(let inner, _): return lines(inner, labelWidth: labelWidth)
    case .editField(let field):
      var text = "[" + escape(field.value.text) + "]"
      if field.changed { text += " (changed)" }
      if let invalid = field.invalid { text += " (invalid: \(invalid))" }
      if let choose = field.choose { text += "  (\(choose.command))" }
      return [text]
    case .row(let row): return rowLines(row)
    case .stack(let children): return children.flatMap { lines($0, labelWidth: labelWidth) }
    case .line(let parts, let separator):
      let texts = parts.map { lines($0, labelWidth: labelWidth).first ?? "" }
      return [texts.joined(separator: separator)]
    case .styled(let textStyle, let inner):
      let inner = lines(inner, labelWidth: labelWidth)
      guard let style else { return inner }
      return inner.map { $0.isEmpty ? $0 : style($0, textStyle) }
    case .tagged(let tag, let inner):
      let inner = lines(inner, labelWidth: labelWidth + TextWidth.of(tag))
      guard let first = inner.first else { return inner }
      return [tag + first] + inner.dropFirst()
    case .table(let table):
      let output = StringOutput()
      try? TableLayout(table: table, width: width).write(to: output)
      return lines(.text(String(output.text.dropLast())))
    case .section(let section):
      // A heading underlined with dashes, after a blank line; a tab as a section.
      let title = escape(section.title)
      return ["", title, String(repeating: "-", count: max(1, TextWidth.of(title)))]
        + lines(section.content, labelWidth: labelWidth)
    case .page(let page):
      var result: [String] = []
      if page.showsTitle {
        let title = escape(page.title)
        result += [title, String(repeating: "=", count: max(1, TextWidth.of(title)))]
      }
      result += lines(page.content)
      let footer = lines(page.footer)
      return footer.isEmpty ? result : result + [""] + footer
    }
  }

  private func rowLines(_ row: PropertyRowNode) -> [String] {
    switch row.style {
    case .valueOnly:
      return lines(row.content, labelWidth: row.labelWidth)
    case .nameAsTitle:
      return [escape(row.label) + ":"]
        + lines(row.content, labelWidth: row.labelWidth).map { "  " + $0 }
    case .nameValue:
      let label = TextWidth.pad(escape(row.label), to: row.labelWidth)
      let value = lines(row.content, labelWidth: row.labelWidth)
      guard let first = value.first else { return [label] }
      let indent = String(repeating: " ", count: TextWidth.of(label) + 2)
      return [label + "  " + first] + value.dropFirst().map { indent + $0 }
    }
  }

  /// Long text wrapped at spaces to `width` columns; every blank but those a line break
  /// stands for is kept (a leading blank, two in a row).
  static func wrap(_ text: String, to width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    // Whether the line has a word yet: an empty one (a leading blank) counts.
    var started = false
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if started, !line.isEmpty, TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
        lines.append(line)
        line = ""
        started = false
      }
      line += started ? " " + word : String(word)
      started = true
    }
    lines.append(line)
    return lines
  }
}
