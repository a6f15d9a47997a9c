import D2SModel
import EnvKeys
import Foundation

/// How the `csv` platform writes values.
public struct CSVOptions: Sendable, Equatable {
  /// Whether a cell holds the text a person sees (through formatters, NULL as
  /// `displayStringForNil`) instead of the value as stored.
  public var shownText: Bool
  /// Whether a text cell that a spreadsheet would run as a formula (beginning with `=`, `+`,
  /// `-`, `@`, a tab or a carriage return) is written with a `'` before it.
  public var spreadsheetSafe: Bool

  /// Options: values as stored, cells as they are, unless said otherwise.
  public init(shownText: Bool = false, spreadsheetSafe: Bool = false) {
    self.shownText = shownText
    self.spreadsheetSafe = spreadsheetSafe
  }
}

/// A page as CSV (RFC 4180: fields quoted when they hold a comma, a quote or a line break,
/// records ending in CR LF). A list is a header line of its columns' display names, then one
/// record per row, its values as stored (as `sqlite3 -csv` and `psql --csv` write them: NULL
/// as an empty field, an empty text as `""`) or, with ``CSVOptions/shownText``, as shown. Any
/// other page is one `label,value` record per property; a message is a record of its own.
public struct CSVRenderer: PageRenderer {
  /// The options values are written with.
  public var options: CSVOptions

  /// A renderer writing values as `options` say.
  public init(options: CSVOptions = CSVOptions()) {
    self.options = options
  }

  /// Writes `node`: a list's header and records, another page's `label,value` records.
  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    switch node {
    case .page(let page): try render(page.content, to: output)
    case .stack(let nodes): for node in nodes { try render(node, to: output) }
    case .section(let section): try render(section.content, to: output)
    case .table(let table):
      var line: [UInt8] = []
      line.reserveCapacity(256)
      Self.appendRecord(table.columns.map { Field.text($0.label) }, to: &line)
      output.write(bytes: line)
      let columns = table.columns
      try table.rows.stream { row in
        line.removeAll(keepingCapacity: true)
        Self.appendRecord(
          row.cells.enumerated().map {
            field($1, of: $0 < columns.count ? columns[$0] : nil)
          },
          to: &line)
        output.write(bytes: line)
      }
    case .row(let row):
      let value: Field =
        if case .value(let shown, _) = row.content { field(shown) } else {
          .text(Self.plain(row.content))
        }
      output.write(Self.record([.text(row.label), value]))
    case .message(let text), .text(let text): output.write(Self.record([.text(text)]))
    case .tagged(_, let inner), .styled(_, let inner), .link(let inner, _):
      try render(inner, to: output)
    case .empty, .action: break
    case .value, .line, .editField:
      output.write(Self.record([.text(Self.plain(node))]))
    }
  }

  /// The text a view shows, its lines joined by line feeds.
  static func plain(_ node: ViewNode) -> String {
    TextLines.plain.lines(node).joined(separator: "\n")
  }

  /// One field of a record: a NULL (written as nothing) or text.
  public enum Field: Equatable, Sendable {
    /// No value: an empty field, never quoted.
    case null
    /// Text, quoted when it is empty or holds a comma, a quote or a line break.
    case text(String)
    /// Text that is not UTF-8, written as its bytes (as `sqlite3 -csv` writes it), quoted as
    /// text is.
    case bytes([UInt8])
  }

  /// The field a cell is written as, by the options; a decimal with the scale of its
  /// `column`, a date as its kind (a day, a time of day, or both).
  func field(_ cell: ShownValue, of column: TableColumn? = nil) -> Field {
    let text: String
    if options.shownText {
      text = cell.text
    } else {
      switch cell.value {
      case .null: return .null
      case .data(let data): text = Self.hexText(data)
      case .decimal(let number): text = BuiltinFormatters.plain(number, scale: column?.scale)
      case .date(let date):
        text = DatabaseValue.formatDate(date, kind: column?.dateKind ?? .dateTime)
      case .textBytes(let bytes):
        guard options.spreadsheetSafe, let first = bytes.first,
          Self.formulaStarts.contains(Unicode.Scalar(first))
        else { return .bytes(Array(bytes)) }
        return .bytes([UInt8(ascii: "'")] + bytes)
      default: text = cell.value.storedText()
      }
    }
    // Text a spreadsheet would run: a text value's; as shown, any text but a plain number
    // (a to-one's title, a formatted value).
    let isText = options.shownText ? Double(text) == nil : cell.value.isText
    guard options.spreadsheetSafe, isText, let first = text.unicodeScalars.first,
      Self.formulaStarts.contains(first)
    else { return .text(text) }
    return .text("'" + text)
  }

  /// What a spreadsheet takes a cell beginning with to be a formula.
  static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

  /// A blob in PostgreSQL's hex form (`\x00ff41`), as `psql --csv` writes it: every byte.
  static func hexText(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = Array("\\x".utf8)
    out.reserveCapacity(2 + data.count * 2)
    for byte in data {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// One record: the fields, separated by commas, ending in CR LF.
  public static func record(_ fields: [Field]) -> String {
    var line: [UInt8] = []
    appendRecord(fields, to: &line)
    return String(decoding: line, as: UTF8.self)
  }

  /// Appends the record of `fields` to `line`.
  static func appendRecord(_ fields: [Field], to line: inout [UInt8]) {
    for (index, field) in fields.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      switch field {
      case .null: continue
      case .text(let text): appendField(text.utf8, to: &line)
      case .bytes(let bytes): appendField(bytes, to: &line)
      }
    }
    line.append(UInt8(ascii: "\r"))
    line.append(UInt8(ascii: "\n"))
  }

  /// Appends `text` as RFC 4180 writes a field: as it is, or in double quotes with quotes
  /// doubled when it is empty (so that it differs from NULL) or holds a comma, a quote or a
  /// line break.
  static func appendField(_ bytes: some Collection<UInt8>, to line: inout [UInt8]) {
    let quoted =
      bytes.isEmpty
      || bytes.contains {
        $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
          || $0 == UInt8(ascii: "\r")
      }
    guard quoted else {
      line.append(contentsOf: bytes)
      return
    }
    line.append(UInt8(ascii: "\""))
    for byte in bytes {
      if byte == UInt8(ascii: "\"") { line.append(byte) }
      line.append(byte)
    }
    line.append(UInt8(ascii: "\""))
  }
}

extension DatabaseValue {
  /// Whether the value is text (a spreadsheet may read it as a formula).
  fileprivate var isText: Bool {
    switch self {
    case .string, .textBytes, .verbatim: true
    default: false
    }
  }
}
