/// BasicLook's text for a terminal: titles underlined, rows aligned, tables fitted to the
/// width (when there is one) and streamed row by row.
public struct TerminalRenderer: PageRenderer {
  /// Columns available; nil for no limit.
  public var width: Int?

  /// A renderer for `width` columns (nil: no limit).
  public init(width: Int?) { self.width = width }

  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    try write(node, to: output)
  }

  /// Writes `node` line by line; a table's rows stream.
  private func write(_ node: ViewNode, to output: any TextOutput) throws {
    switch node {
    case .stack(let children):
      for child in children { try write(child, to: output) }
    case .table(let table):
      try TableLayout(table: table, width: width).write(to: output)
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

  /// The lines of `node` (a table's rows read whole); `labelWidth` is the label column of the
  /// row it is in, which wrapped values leave free.
  public func lines(_ node: ViewNode, labelWidth: Int = 0) -> [String] {
    switch node {
    case .empty: return []
    case .text(let text):
      return text.split(separator: "\n", omittingEmptySubsequences: false).map {
        TerminalText.escaped(String($0))
      }
    case .message(let text): return [TerminalText.escaped(text)]
    case .value(let shown, let wraps):
      let text = TerminalText.escaped(shown.text)
      return wraps ? Self.wrap(text, to: max(20, (width ?? 100) - labelWidth - 2)) : [text]
    case .action(let command): return ["(\(command))"]
    case .editField(let field):
      var text = "[" + TerminalText.escaped(field.value.text) + "]"
      if field.changed { text += " (changed)" }
      if let invalid = field.invalid { text += " (invalid: \(invalid))" }
      if let choose = field.chooseCommand { text += "  (\(choose))" }
      return [text]
    case .row(let row): return rowLines(row)
    case .stack(let children): return children.flatMap { lines($0, labelWidth: labelWidth) }
    case .line(let parts, let separator):
      let texts = parts.map { lines($0, labelWidth: labelWidth).first ?? "" }
      return [texts.joined(separator: separator)]
    case .tagged(let tag, let inner):
      let inner = lines(inner, labelWidth: labelWidth + TextWidth.of(tag))
      guard let first = inner.first else { return inner }
      return [tag + first] + inner.dropFirst()
    case .table(let table):
      let output = StringOutput()
      try? TableLayout(table: table, width: width).write(to: output)
      return lines(.text(String(output.text.dropLast())))
    case .page(let page):
      let output = StringOutput()
      try? write(.page(page), to: output)
      return lines(.text(String(output.text.dropLast())))
    }
  }

  private func rowLines(_ row: PropertyRowNode) -> [String] {
    switch row.style {
    case .valueOnly:
      return lines(row.content, labelWidth: row.labelWidth)
    case .nameAsTitle:
      return [TerminalText.escaped(row.label) + ":"]
        + lines(row.content, labelWidth: row.labelWidth).map { "  " + $0 }
    case .nameValue:
      let label = TextWidth.pad(TerminalText.escaped(row.label), to: row.labelWidth)
      let value = lines(row.content, labelWidth: row.labelWidth)
      guard let first = value.first else { return [label] }
      let indent = String(repeating: " ", count: TextWidth.of(label) + 2)
      return [label + "  " + first] + value.dropFirst().map { indent + $0 }
    }
  }

  /// Long text wrapped at spaces to `width` columns.
  static func wrap(_ text: String, to width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !line.isEmpty, TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    lines.append(line)
    return lines
  }
}

extension ViewNode {
  /// The node's first line of terminal text: what a table cell shows.
  public var cellText: String {
    if case .value(let shown, _) = self { return TerminalText.escaped(shown.text) }
    return TerminalRenderer(width: nil).lines(self).first ?? ""
  }
}
