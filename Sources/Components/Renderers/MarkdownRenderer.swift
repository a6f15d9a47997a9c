/// Markdown: the title as a `#` heading, tables and property rows as GitHub tables, other
/// lines as paragraphs; rows of a table stream.
public struct MarkdownRenderer: PageRenderer {
  /// A Markdown renderer.
  public init() {}

  /// Writes `node` as Markdown: headings, GitHub tables, paragraphs.
  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    var pendingRows: [PropertyRowNode] = []
    try write(node, to: output, rows: &pendingRows)
    flush(&pendingRows, to: output)
  }

  private func write(_ node: ViewNode, to output: any TextOutput, rows: inout [PropertyRowNode])
    throws
  {
    switch node {
    case .empty: break
    case .page(let page):
      output.write("# " + escape(TerminalText.escaped(page.title)) + "\n\n")
      try write(page.content, to: output, rows: &rows)
      flush(&rows, to: output)
      if case .empty = page.footer {
      } else {
        output.write("\n")
        try write(page.footer, to: output, rows: &rows)
      }
    case .stack(let children):
      for child in children { try write(child, to: output, rows: &rows) }
    case .styled(_, let inner) where inner.isBlock:
      try write(inner, to: output, rows: &rows)
    case .row(let row):
      rows.append(row)
    case .section(let section):
      flush(&rows, to: output)
      output.write("## " + escape(TerminalText.escaped(section.title)) + "\n\n")
      try write(section.content, to: output, rows: &rows)
      flush(&rows, to: output)
      output.write("\n")
    case .table(let table):
      flush(&rows, to: output)
      try writeTable(table, to: output)
    default:
      flush(&rows, to: output)
      // Indented lines are items of a list; other lines are paragraphs.
      for line in TextLines.markdown.lines(node) {
        if line.hasPrefix("  "), !line.allSatisfy({ $0 == " " }) {
          output.write("- " + escape(String(line.drop(while: { $0 == " " }))) + "\n")
        } else {
          output.write(escape(line) + "\n\n")
        }
      }
    }
  }

  private func flush(_ rows: inout [PropertyRowNode], to output: any TextOutput) {
    guard !rows.isEmpty else { return }
    output.write("| Property | Value |\n| --- | --- |\n")
    for row in rows {
      let value = TextLines.markdown.lines(row.content).joined(separator: " ")
      output.write(line([row.label, value]))
    }
    rows.removeAll()
  }

  private func writeTable(_ table: TableNode, to output: any TextOutput) throws {
    if !table.columns.isEmpty {
      output.write(line(table.columns.map(\.label)))
      output.write(
        "| " + table.columns.map { $0.rightAligned ? "---:" : "---" }.joined(separator: " | ")
          + " |\n")
      try table.rows.stream { row in output.write(line(row.cells)) }
    }
    switch table.summary {
    case .none: break
    case .hint(let text): output.write("\n" + escape(text) + "\n")
    case .list(let list):
      let shown = table.rows.count
      output.write("\n" + escape(list.footer(shown: shown, total: try list.total(shown))) + "\n")
    }
  }

  private func line(_ cells: [String]) -> String {
    line(cells.map { ShownValue(.null, text: $0) })
  }

  /// A table line; a styled cell's text in Markdown's emphasis.
  private func line(_ cells: [ShownValue]) -> String {
    "| "
      + cells.map { cell in
        let text = TerminalText.escaped(cell.text).replacingOccurrences(of: "|", with: "\\|")
        return cell.style.map { MarkdownRenderer.emphasis(text, $0) } ?? text
      }
      .joined(separator: " | ") + " |\n"
  }

  /// A line that Markdown would read as a heading, a list item or a rule is escaped.
  private func escape(_ text: String) -> String {
    text.hasPrefix("#") || text.hasPrefix("-") || text.hasPrefix("*") ? "\\" + text : text
  }

  /// `text` in Markdown's emphasis for `style`: `__bold__`, `_italic_`, `` `monospaced` ``
  /// (colours have none). Underscores, not asterisks: a styled line never begins with what
  /// the line escaping guards against.
  static func emphasis(_ text: String, _ style: TextStyle) -> String {
    guard !text.isEmpty else { return text }
    var text = text
    if style.monospaced { text = "`" + text + "`" }
    if style.italic { text = "_" + text + "_" }
    if style.bold { text = "__" + text + "__" }
    return text
  }
}

extension TextLines {
  /// Markdown's lines: control characters escaped as on a terminal, nothing wrapped, styles
  /// as emphasis.
  static let markdown = TextLines(
    width: nil, escape: { TerminalText.escaped($0) },
    style: { MarkdownRenderer.emphasis($0, $1) })
}
