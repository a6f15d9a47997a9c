import Components
import EnvKeys

/// A list's rows as HTML, written as UTF-8 bytes into one buffer kept across rows: no string
/// is made per cell or per link. What is the same for every row (the object links' paths,
/// each column's alignment and style) is escaped once, before the first row.
///
/// It writes what ``HTMLRenderer``'s cells would as strings: the first cell linking to the
/// row's object, a to-one's cell to its destination, a web or mail address to itself, every
/// text escaped (``HTML/escape(_:)``), a styled cell in its span.
struct ListRowHTML {
  /// `/Entity/`, escaped, when rows link to their objects.
  private let rowPrefix: [UInt8]?
  /// The query a row's link keeps (the list it was opened from), escaped.
  private let rowSuffix: [UInt8]
  /// Per column: `/Destination/`, escaped, when its cells link to a to-one's destination.
  private let destinationPrefixes: [[UInt8]?]
  /// Per column: whether it aligns right.
  private let rightAligned: [Bool]
  /// The row being written.
  private var bytes: [UInt8] = []
  /// The last style seen per column and its span's opening: a column's cells mostly share
  /// one style.
  private var styles: [(style: TextStyle, opening: [UInt8]?)?]

  /// The writer of `columns`' rows; rows link to `entity`'s objects (when not nil), keeping
  /// `rowSuffix`, and a column's cells to the destination its `destinations` entry names.
  init(
    columns: [TableColumn], entity: String?, rowSuffix: String, destinations: [String?]
  ) {
    func escaped(_ text: String) -> [UInt8] {
      var out: [UInt8] = []
      HTML.appendEscaped(text, to: &out)
      return out
    }
    rowPrefix = entity.map { escaped(WebLinks.entityPath($0) + "/") }
    self.rowSuffix = escaped(rowSuffix)
    destinationPrefixes = destinations.map { $0.map { escaped(WebLinks.entityPath($0) + "/") } }
    rightAligned = columns.map(\.rightAligned)
    styles = Array(repeating: nil, count: columns.count)
    bytes.reserveCapacity(1024)
  }

  /// `row` as a line of HTML (`<tr>…</tr>\n`); the buffer is reused for the next row when
  /// the caller does not keep what it was given.
  mutating func html(_ row: TableRow) -> [UInt8] {
    bytes.removeAll(keepingCapacity: true)
    append("<tr>")
    let linksRow = rowPrefix != nil && !row.key.isEmpty && !row.key.contains(where: \.isNull)
    for (index, cell) in row.cells.enumerated() {
      append(index < rightAligned.count && rightAligned[index] ? "<td class=\"num\">" : "<td>")
      let opening = cell.style.flatMap { styleOpening($0, column: index) }
      if let opening { bytes.append(contentsOf: opening) }
      if index == 0, linksRow, let rowPrefix {
        append("<a href=\"")
        bytes.append(contentsOf: rowPrefix)
        for (part, value) in row.key.enumerated() {
          if part > 0 { append(",") }
          appendKey(value)
        }
        bytes.append(contentsOf: rowSuffix)
        append("\">")
        HTML.appendEscaped(cell.text.isEmpty ? "(open)" : cell.text, to: &bytes)
        append("</a>")
      } else {
        value(
          cell, destination: index < destinationPrefixes.count ? destinationPrefixes[index] : nil)
      }
      if opening != nil { append("</span>") }
      append("</td>")
    }
    append("</tr>\n")
    return bytes
  }

  /// A cell's value: a link to its to-one's destination, or to itself when it is a web or
  /// mail address, else its text.
  private mutating func value(_ shown: ShownValue, destination: [UInt8]?) {
    if let destination, !shown.value.isNull {
      append("<a href=\"")
      bytes.append(contentsOf: destination)
      appendKey(shown.value)
      append("\">")
      HTML.appendEscaped(shown.text, to: &bytes)
      append("</a>")
    } else if case .string(let raw) = shown.value, HTML.isLinkable(raw), raw == shown.text {
      append("<a href=\"")
      HTML.appendEscaped(raw, to: &bytes)
      append("\" rel=\"nofollow noopener noreferrer\">")
      HTML.appendEscaped(shown.text, to: &bytes)
      append("</a>")
    } else {
      HTML.appendEscaped(shown.text, to: &bytes)
    }
  }

  /// A key value as a path segment (``WebLinks/keyText(_:)``, percent-encoded): what that
  /// gives needs no HTML escaping.
  private mutating func appendKey(_ value: DatabaseValue) {
    if case .int(let number) = value {
      append(number)
    } else {
      PercentEncoding.append(WebLinks.keyText(value), to: &bytes)
    }
  }

  /// The span opening a cell of `style` in `column`, nil for a plain style.
  private mutating func styleOpening(_ style: TextStyle, column: Int) -> [UInt8]? {
    guard column < styles.count else { return HTML.styleOpening(style).map { Array($0.utf8) } }
    if let kept = styles[column], kept.style == style { return kept.opening }
    let opening = HTML.styleOpening(style).map { Array($0.utf8) }
    styles[column] = (style, opening)
    return opening
  }

  private mutating func append(_ markup: StaticString) {
    markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends `number` in decimal digits.
  private mutating func append(_ number: Int) {
    guard number >= 0 else {
      bytes.append(contentsOf: String(number).utf8)
      return
    }
    var divisor = 1
    while divisor <= number / 10 { divisor *= 10 }
    var rest = number
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }
}
