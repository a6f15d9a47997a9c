import Components
import Plugins

/// Adds the `csv` platform: `dvd-repl DB --format csv -c 'list Actor limit 2'`, or
/// `platform = 'csv'` in rules.
public struct CSVPlatformPlugin: D2SPlugin {
  public init() {}
  public let name = "CSVPlatform"
  public var renderers: [PluginRenderer] { [PluginRenderer("csv") { _ in CSVRenderer() }] }
}

/// A page as CSV (RFC 4180 quoting, one line per record ending in a line feed): a list is a
/// header line of its columns' display names, then one line per row, without the key; an
/// inspect page is one `label,value` line per property; a message is a line of its own.
public struct CSVRenderer: PageRenderer {
  public init() {}

  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    switch node {
    case .page(let page): try render(page.content, to: output)
    case .stack(let nodes): for node in nodes { try render(node, to: output) }
    case .table(let table):
      output.write(Self.record(table.columns.map(\.label)))
      try table.rows.stream { row in output.write(Self.record(row.cells.map(\.text))) }
    case .row(let row): output.write(Self.record([row.label, Self.text(row.content)]))
    case .message(let text), .text(let text): output.write(Self.record([text]))
    case .empty, .action: break
    default: output.write(Self.record([Self.text(node)]))
    }
  }

  /// One record: the fields, each quoted when it holds a comma, a quote or a line break.
  public static func record(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\n"
  }

  /// A field as RFC 4180 writes it: as it is, or in double quotes with quotes doubled.
  public static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The text a value-like node shows (a row's content, an edit field, a line of values).
  static func text(_ node: ViewNode) -> String {
    switch node {
    case .value(let shown, _): shown.text
    case .text(let text), .message(let text): text
    case .editField(let field): field.value.text
    case .line(let nodes, let separator): nodes.map(text).joined(separator: separator)
    case .stack(let nodes): nodes.map(text).joined(separator: "\n")
    case .tagged(_, let node), .styled(_, let node): text(node)
    case .row(let row): text(row.content)
    default: ""
    }
  }
}
