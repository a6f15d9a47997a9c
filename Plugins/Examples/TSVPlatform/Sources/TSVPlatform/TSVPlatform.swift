import Components
import Plugins

/// Adds the `tsv` platform: `dvd-repl DB --format tsv -c 'list Actor limit 2'`, or
/// `platform = 'tsv'` in rules.
public struct TSVPlatformPlugin: D2SPlugin {
  public init() {}
  public let name = "TSVPlatform"
  public var renderers: [PluginRenderer] { [PluginRenderer("tsv") { _ in TSVRenderer() }] }
}

/// A page as TSV (IANA `text/tab-separated-values`, one line per record ending in a line feed,
/// its fields separated by tabs): a list is a header line of its columns' display names, then
/// one line per row, without the key; an inspect page is one `label<TAB>value` line per
/// property; a message is a line of its own.
public struct TSVRenderer: PageRenderer {
  public init() {}

  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    switch node {
    case .page(let page): try render(page.content, to: output)
    case .stack(let nodes): for node in nodes { try render(node, to: output) }
    // A section's or tab's rows, its heading left out (a TSV row is a property).
    case .section(let section): try render(section.content, to: output)
    case .table(let table):
      output.write(Self.record(table.columns.map(\.label)))
      try table.rows.stream { row in output.write(Self.record(row.cells.map(\.text))) }
    case .row(let row): output.write(Self.record([row.label, Self.text(row.content)]))
    case .message(let text), .text(let text): output.write(Self.record([text]))
    case .empty, .action: break
    default: output.write(Self.record([Self.text(node)]))
    }
  }

  /// One record: the fields, each escaped, separated by tabs, ending in a line feed.
  public static func record(_ fields: [String]) -> String {
    fields.map(field).joined(separator: "\t") + "\n"
  }

  /// A field as PostgreSQL's `COPY` text format writes it: as it is, or with a tab, a line
  /// feed, a carriage return and a backslash written as `\t`, `\n`, `\r` and `\\`.
  public static func field(_ text: String) -> String {
    // Scalars, not characters: a CR LF pair is one `Character`, equal to neither "\r" nor "\n".
    guard text.unicodeScalars.contains(where: { "\t\n\r\\".unicodeScalars.contains($0) }) else {
      return text
    }
    var escaped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\t": escaped.append(contentsOf: #"\t"#.unicodeScalars)
      case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
      case "\r": escaped.append(contentsOf: #"\r"#.unicodeScalars)
      case "\\": escaped.append(contentsOf: #"\\"#.unicodeScalars)
      default: escaped.append(scalar)
      }
    }
    return String(escaped)
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
