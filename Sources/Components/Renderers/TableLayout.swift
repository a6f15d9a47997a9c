/// A terminal table: column widths from the first rows, cut with `…` to fit a width when there
/// is one; rows after the measured ones stream with the same widths, and a longer value there
/// runs past its column when there is no width limit.
struct TableLayout {
  let table: TableNode
  let width: Int?
  /// Whether a styled cell gets ANSI codes (around its padded text, taking no columns).
  var styles = false
  /// How many rows the widths are measured from.
  static let measuredRows = 1000
  static let separator = "  "

  func write(to output: any TextOutput) throws {
    var measured: [TableRow] = []
    var layout: Layout?
    var bytes: [UInt8] = []
    try table.rows.stream { row in
      if let layout {
        layout.write(row.cells, into: &bytes)
        output.write(bytes: bytes)
        return
      }
      measured.append(row)
      if measured.count == Self.measuredRows {
        layout = start(measured, output)
        measured.removeAll()
      }
    }
    if layout == nil { layout = start(measured, output) }
    if let layout, !layout.hidden.isEmpty {
      let hidden = layout.hidden
      writeLine(
        "(\(hidden.count) more column\(hidden.count == 1 ? "" : "s") need\(hidden.count == 1 ? "s" : "") a wider terminal: \(hidden.joined(separator: ", ")))",
        to: output)
    }
    try summary(to: output)
  }

  /// Widths measured from `rows` (the first ones), then the header and those rows written.
  private func start(_ rows: [TableRow], _ output: any TextOutput) -> Layout? {
    guard !table.columns.isEmpty else { return nil }
    let layout = Layout(columns: table.columns, rows: rows, width: width)
    layout.styles = styles
    for line in layout.headerLines {
      var text = layout.line(line, aligned: false)
      while text.hasSuffix(" \n") { text.remove(at: text.index(text.endIndex, offsetBy: -2)) }
      output.write(text)
    }
    output.write(
      layout.widths.map { String(repeating: "-", count: $0) }.joined(separator: Self.separator)
        + "\n")
    var bytes: [UInt8] = []
    for row in rows {
      layout.write(row.cells, into: &bytes)
      output.write(bytes: bytes)
    }
    return layout
  }

  /// Column widths and the lines they make.
  ///
  /// Every column gets its natural width (its widest value, and its header) when that fits.
  /// When it does not: headers wrap onto more lines, then the widest cuttable text columns
  /// shrink, never below 12 columns (or their natural width when that is less); titles,
  /// numbers and dates are never cut. A table still too wide drops trailing columns, which are
  /// named below it. Without a width (scripts), nothing is cut.
  /// (A class: streamed rows use it by reference, not copying its arrays for every row.)
  final class Layout {
    let headers: [String]
    let right: [Bool]
    var widths: [Int]
    let hidden: ArraySlice<String>
    let cuts: Bool
    /// Whether styled cells get ANSI codes.
    var styles = false
    /// The header, one line of labels per element (long labels wrap).
    var headerLines: [[String]] = []

    static let leastTextWidth = 12

    init(columns: [TableColumn], rows: [TableRow], width: Int?) {
      headers = columns.map { TerminalText.escaped($0.label) }
      right = columns.map(\.rightAligned)
      // Each cell is measured once.
      var cellWidths = [Int](repeating: 0, count: columns.count)
      for row in rows {
        for (index, cell) in row.cells.enumerated() where index < cellWidths.count {
          cellWidths[index] = max(cellWidths[index], TextWidth.of(TerminalText.escaped(cell.text)))
        }
      }
      let natural = zip(headers, cellWidths).map { max(TextWidth.of($0), $1) }
      let longestWord = headers.map {
        $0.split(separator: " ").map { TextWidth.of(String($0)) }.max() ?? 0
      }
      func total(_ sizes: ArraySlice<Int>) -> Int {
        sizes.reduce(0, +) + 2 * max(sizes.count - 1, 0)
      }
      var widths = natural
      var shown = widths.count
      if let width {
        // The least each column can take: its values whole (titles, numbers, dates) or down to
        // 12 columns (text), and its header's longest word.
        let least = columns.indices.map { index in
          let values =
            columns[index].cuttable
            ? min(cellWidths[index], Self.leastTextWidth) : cellWidths[index]
          return max(values, min(longestWord[index], natural[index]), 1)
        }
        while shown > 1, total(least[..<shown]) > width { shown -= 1 }
        widths = Array(natural.prefix(shown))
        // Headers wrap first, those that save the most first, down to their values' width.
        let wrapped = widths.indices.map {
          max(cellWidths[$0], min(longestWord[$0], natural[$0]), 1)
        }
        for index in widths.indices.sorted(by: {
          widths[$0] - wrapped[$0] > widths[$1] - wrapped[$1]
        })
        where total(widths[...]) > width {
          widths[index] = wrapped[index]
        }
        // Then the widest text columns shrink, one column at a time.
        while total(widths[...]) > width,
          let column = widths.indices.filter({ widths[$0] > least[$0] }).max(by: {
            widths[$0] < widths[$1]
          })
        {
          widths[column] -= 1
        }
      }
      self.widths = widths
      self.hidden = headers.dropFirst(shown)
      self.cuts = width != nil
      self.headerLines = Self.wrap(Array(headers.prefix(shown)), to: widths)
    }

    /// The labels wrapped at spaces to their columns (a word longer than its column is split).
    static func wrap(_ labels: [String], to widths: [Int]) -> [[String]] {
      let wrapped = zip(labels, widths).map { label, width -> [String] in
        if TextWidth.of(label) <= width { return [label] }
        var lines: [String] = []
        var line = ""
        for word in label.split(separator: " ").map(String.init) {
          var word = word
          while TextWidth.of(word) > width, width > 0 {
            if !line.isEmpty {
              lines.append(line)
              line = ""
            }
            let head = String(word.prefix(width))
            lines.append(head)
            word = String(word.dropFirst(head.count))
          }
          if word.isEmpty { continue }
          if line.isEmpty {
            line = word
          } else if TextWidth.of(line) + 1 + TextWidth.of(word) <= width {
            line += " " + word
          } else {
            lines.append(line)
            line = word
          }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
      }
      let count = wrapped.map(\.count).max() ?? 1
      return (0..<count).map { row in wrapped.map { row < $0.count ? $0[row] : "" } }
    }

    /// One line of the table, ending in a line break.
    func line(_ cells: [String], aligned: Bool) -> String {
      var bytes: [UInt8] = []
      write(cells.map { ShownValue(.null, text: $0) }, aligned: aligned, into: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }

    /// One line of the table as UTF-8 bytes, ending in a line break, in `bytes` (reused).
    func write(_ cells: [ShownValue], aligned: Bool = true, into bytes: inout [UInt8]) {
      bytes.removeAll(keepingCapacity: true)
      for index in 0..<min(cells.count, widths.count) {
        if index > 0 { bytes.append(contentsOf: Self.separatorBytes) }
        var text = TerminalText.escaped(cells[index].text)
        // ASCII (nearly every cell) is a column a byte: measured without Unicode's tables.
        let ascii = text.utf8.withContiguousStorageIfAvailable(TextWidth.isASCII) == true
        var width = ascii ? text.utf8.count : TextWidth.of(text)
        if cuts, width > widths[index] {
          text = TextWidth.truncate(text, to: widths[index])
          width = TextWidth.of(text)
        }
        let isLast = index == widths.count - 1
        let alignRight = aligned && right[index]
        let padding = isLast && !alignRight ? 0 : widths[index] - width
        if padding > 0, alignRight { Self.appendSpaces(padding, to: &bytes) }
        if styles, let style = cells[index].style { text = TerminalText.styled(text, style) }
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
          bytes.append(contentsOf: text.utf8)
        }
        if padding > 0, !alignRight { Self.appendSpaces(padding, to: &bytes) }
      }
      bytes.append(0x0A)
    }

    static let separatorBytes = Array(TableLayout.separator.utf8)
    static let spaces = [UInt8](repeating: 0x20, count: 64)

    static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
      var left = count
      while left > 0 {
        let part = min(left, spaces.count)
        bytes.append(contentsOf: spaces[0..<part])
        left -= part
      }
    }
  }

  private func summary(to output: any TextOutput) throws {
    switch table.summary {
    case .none: break
    case .hint(let text): output.write(text + "\n")
    case .list(let list):
      let shown = table.rows.count
      writeLine(list.footer(shown: shown, total: try list.total(shown)), to: output)
    }
  }

  /// A line below the table, wrapped at spaces to the width when there is one.
  private func writeLine(_ text: String, to output: any TextOutput) {
    let lines = width.map { TextLines.wrap(text, to: $0) } ?? [text]
    for line in lines { output.write(line + "\n") }
  }
}
