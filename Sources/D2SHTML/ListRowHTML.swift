import Components
import EnvKeys

/// A list's rows as HTML, written as UTF-8 bytes into one buffer kept across rows: no string
/// is made per cell or per link. What is the same for every row (the object links' paths,
/// each column's alignment and style) is escaped once, before the first row.
///
/// It writes what ``HTMLRenderer``'s cells would as strings: the first cell linking to the
/// row's object, a to-one's cell to its destination, a web or mail address to itself, every
/// text escaped (``HTML/escape(_:)``), a styled cell in its span.
struct ListRowHTML: ~Copyable {
  /// `/Entity/`, escaped, when rows link to their objects.
  private let rowPrefix: [UInt8]?
  /// The query a row's link keeps (the list it was opened from), escaped.
  private let rowSuffix: [UInt8]
  /// Per column: `/Destination/`, escaped, when its cells link to a to-one's destination.
  private let destinationPrefixes: [[UInt8]?]
  /// Per column: which markup comes before its cell's content (the row's `<tr>` or the cell
  /// before's `</td>`, then its own `<td>`), appended at once.
  private let openings: [Opening]
  /// The rows being written.
  private var bytes = HTMLBytes(capacity: HTMLRenderer.Writer.rowBytesPerWrite + 2_048)
  /// The last style seen per column and its span's opening: a column's cells mostly share
  /// one style.
  private var styles: [(style: TextStyle, opening: [UInt8]?)?]

  /// The writer of `columns`' rows; rows link to `entity`'s objects (when not nil), keeping
  /// `rowSuffix`, and a column's cells to the destination its `destinations` entry names.
  init(
    columns: [TableColumn], entity: String?, rowSuffix: String, destinations: [String?]
  ) {
    rowPrefix = entity.map(Self.pathPrefix)
    var suffix = HTMLBytes()
    HTML.appendEscaped(rowSuffix, to: &suffix)
    self.rowSuffix = suffix.take()
    destinationPrefixes = destinations.map { $0.map(Self.pathPrefix) }
    openings = columns.indices.map { index in
      switch (index == 0, columns[index].rightAligned) {
      case (true, false): .first
      case (true, true): .firstRight
      case (false, false): .later
      case (false, true): .laterRight
      }
    }
    styles = Array(repeating: nil, count: columns.count)
  }

  /// A cell's opening markup: the first cell's (after `<tr>`) or a later one's (after the
  /// cell before's `</td>`), left or right aligned.
  private enum Opening {
    case first, firstRight, later, laterRight

    /// The markup, a literal: appending it retains nothing.
    var markup: StaticString {
      switch self {
      case .first: "<tr><td>"
      case .firstRight: "<tr><td class=\"num\">"
      case .later: "</td><td>"
      case .laterRight: "</td><td class=\"num\">"
      }
    }
  }

  /// The rows appended since the last ``takeRows()`` (see ``append(_:)``), in bytes.
  var pendingBytes: Int { bytes.count }

  /// Appends `row`'s line of HTML (`<tr>…</tr>\n`) to those waiting to be taken: a list's
  /// rows go to the output a few kilobytes at a time, not one write each.
  mutating func append(_ row: TableRow) {
    let linksRow = rowPrefix != nil && !row.key.isEmpty && !row.key.contains(where: \.isNull)
    // A cell's parts are read where they are: a cell bound as a whole is copied (its value,
    // text and style retained and released, 150 instructions a cell).
    for index in row.cells.indices {
      if index < openings.count {
        bytes.append(openings[index].markup)
      } else {
        bytes.append(index == 0 ? "<tr><td>" : "</td><td>")
      }
      let opening = row.cells[index].style.flatMap { styleOpening($0, column: index) }
      if let opening { bytes.append(opening) }
      if index == 0, linksRow, let rowPrefix {
        bytes.append("<a href=\"")
        bytes.append(rowPrefix)
        for (part, value) in row.key.enumerated() {
          if part > 0 { bytes.append(UInt8(ascii: ",")) }
          bytes.append(keyPart: value, first: part == 0, alone: row.key.count == 1)
        }
        bytes.append(rowSuffix)
        bytes.append("\">")
        let text = row.cells[index].text
        HTML.appendEscaped(text.isEmpty ? "(open)" : text, to: &bytes)
        bytes.append("</a>")
      } else {
        // Most cells link nowhere: their text is escaped where it is, with no copy of the
        // cell's value, text or a column's prefix to hand to `appendValue`.
        if index < destinationPrefixes.count, destinationPrefixes[index] != nil {
          Self.appendValue(
            row.cells[index].value, text: row.cells[index].text,
            destination: destinationPrefixes[index], to: &bytes)
        } else if HTML.mayBeLinkable(row.cells[index].text) {
          Self.appendValue(
            row.cells[index].value, text: row.cells[index].text, destination: nil, to: &bytes)
        } else {
          HTML.appendEscaped(row.cells[index].text, to: &bytes)
        }
      }
      if opening != nil { bytes.append("</span>") }
    }
    bytes.append(row.cells.isEmpty ? "<tr></tr>\n" : "</td></tr>\n")
  }

  /// The rows appended so far, which are then no longer waiting.
  mutating func takeRows() -> [UInt8] {
    bytes.take()
  }

  /// `/Entity/`, escaped: what a link to one of `entity`'s objects starts with.
  static func pathPrefix(_ entity: String) -> [UInt8] {
    var prefix = HTMLBytes()
    HTML.appendEscaped(WebLinks.entityPath(entity) + "/", to: &prefix)
    return prefix.take()
  }

  /// Appends a value's HTML to `bytes`: a link to its to-one's object (`destination`, a
  /// ``pathPrefix(_:)``, when not nil), or to itself when it is a web or mail address, else
  /// its `text`. An inspect page's values are written by this, and a list's cells that link
  /// to a destination or may link to themselves (``HTML/mayBeLinkable(_:)``); the others are
  /// their escaped text, as this would write them.
  @inline(__always)
  static func appendValue(
    _ value: DatabaseValue, text: String, destination: [UInt8]?, to bytes: inout HTMLBytes
  ) {
    if let destination, !value.isNull {
      bytes.append("<a href=\"")
      bytes.append(destination)
      bytes.append(keyPart: value, first: true, alone: true)
      bytes.append("\">")
      HTML.appendEscaped(text, to: &bytes)
      bytes.append("</a>")
    } else if case .string(let raw) = value, HTML.isLinkable(raw), raw == text {
      bytes.append("<a href=\"")
      HTML.appendEscaped(raw, to: &bytes)
      bytes.append("\" rel=\"nofollow noopener noreferrer\">")
      HTML.appendEscaped(text, to: &bytes)
      bytes.append("</a>")
    } else {
      HTML.appendEscaped(text, to: &bytes)
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
}

extension HTMLBytes {
  /// Appends a key value as a part of a path segment (``WebLinks/keyText(_:)``,
  /// percent-encoded, an integer as its digits), `~` first where ``WebLinks/keySegment(_:)``
  /// writes one (the `first` of the parts, or the key's only one, `alone`): what that gives
  /// needs no HTML escaping.
  fileprivate mutating func append(keyPart value: DatabaseValue, first: Bool, alone: Bool) {
    guard case .int(let number) = value, number >= 0 else {
      let encoded = WebLinks.keyPart(value)
      if alone {
        append(unescaped: WebLinks.keySegment(encoded: encoded))
      } else {
        if first, encoded.hasPrefix("~") { append(UInt8(ascii: "~")) }
        append(unescaped: encoded)
      }
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maximumCount) {
      digits in
      let start = DecimalDigits.write(UInt(number), toEndOf: digits)
      append(UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }
}
