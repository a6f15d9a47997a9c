/// A terminal table: column widths from the first rows, cut with `…` to fit a width when there
/// is one; rows after the measured ones stream with the same widths, and a longer value there
/// runs past its column when there is no width limit.
struct TableLayout {
  let table: TableNode
  let width: Int?
  /// How many rows the widths are measured from.
  static let measuredRows = 1000
  static let separator = "  "

  func write(to output: any TextOutput) throws {
    var measured: [TableRow] = []
    var layout: Layout?
    var bytes: [UInt8] = []
    try table.rows.forEach { row in
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
      output.write("(\(hidden.count) more column\(hidden.count == 1 ? "" : "s") need a wider terminal: \(hidden.joined(separator: ", ")))\n")
    }
    try summary(to: output)
  }

  /// Widths measured from `rows` (the first ones), then the header and those rows written.
  private func start(_ rows: [TableRow], _ output: any TextOutput) -> Layout? {
    guard !table.columns.isEmpty else { return nil }
    let layout = Layout(columns: table.columns, rows: rows, width: width)
    output.write(layout.line(layout.headers, aligned: false))
    output.write(layout.widths.map { String(repeating: "-", count: $0) }.joined(separator: Self.separator) + "\n")
    var bytes: [UInt8] = []
    for row in rows {
      layout.write(row.cells, into: &bytes)
      output.write(bytes: bytes)
    }
    return layout
  }

  /// Column widths and the lines they make.
  struct Layout {
    let headers: [String]
    let right: [Bool]
    var widths: [Int]
    let hidden: ArraySlice<String>
    let cuts: Bool

    init(columns: [TableColumn], rows: [TableRow], width: Int?) {
      headers = columns.map(\.label)
      right = columns.map(\.rightAligned)
      // Each cell is measured once: the widest value per column, then with its header.
      var cellWidths = [Int](repeating: 0, count: columns.count)
      for row in rows {
        for (index, cell) in row.cells.enumerated() where index < cellWidths.count {
          cellWidths[index] = max(cellWidths[index], TextWidth.of(cell.text))
        }
      }
      var widths = zip(headers, cellWidths).map { max(TextWidth.of($0), $1) }
      var shown = widths.count
      if let width {
        // Fit the width (two spaces between columns): keep as many leading columns as fit at
        // their least useful width (numbers whole, though their headers may be cut; text up to
        // 10), then cut the widest column above that until the table fits; the columns left out
        // are named below the table.
        let right = right
        let least = widths.indices.map { right[$0] ? min(widths[$0], max(cellWidths[$0], 4)) : min(widths[$0], 10) }
        func total(_ sizes: [Int]) -> Int { sizes.reduce(0, +) + 2 * max(sizes.count - 1, 0) }
        while shown > 1, total(Array(least.prefix(shown))) > width { shown -= 1 }
        widths = Array(widths.prefix(shown))
        while total(widths) > width,
          let column = widths.indices.filter({ widths[$0] > (shown == 1 ? 4 : least[$0]) }).max(by: { widths[$0] < widths[$1] })
        {
          widths[column] -= 1
        }
      }
      self.widths = widths
      self.hidden = headers.dropFirst(shown)
      self.cuts = width != nil
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
      for (index, cell) in cells.enumerated() where index < widths.count {
        if index > 0 { bytes.append(0x20); bytes.append(0x20) }
        var text = cell.text
        var width = TextWidth.of(text)
        if cuts, width > widths[index] {
          text = TextWidth.truncate(text, to: widths[index])
          width = TextWidth.of(text)
        }
        let isLast = index == widths.count - 1
        let alignRight = aligned && right[index]
        let padding = isLast && !alignRight ? 0 : widths[index] - width
        if padding > 0, alignRight { bytes.append(contentsOf: repeatElement(0x20, count: padding)) }
        bytes.append(contentsOf: text.utf8)
        if padding > 0, !alignRight { bytes.append(contentsOf: repeatElement(0x20, count: padding)) }
      }
      bytes.append(0x0A)
    }
  }

  private func summary(to output: any TextOutput) throws {
    switch table.summary {
    case .none: break
    case .hint(let text): output.write(text + "\n")
    case .list(let list):
      let shown = table.rows.count
      output.write(list.footer(shown: shown, total: try list.total(shown)) + "\n")
    }
  }
}
