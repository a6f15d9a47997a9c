/// A text table: column widths from the rows shown, cut with `…` to fit the width.
struct Table {
  let headers: [String]
  let rightAligned: [Bool]
  let rows: [[String]]

  func lines(width: Int) -> [String] {
    guard !headers.isEmpty else { return [] }
    // Each cell is measured once: the widest value per column, then with its header.
    var cellWidths = [Int](repeating: 0, count: headers.count)
    for row in rows {
      for (index, cell) in row.enumerated() where index < cellWidths.count {
        cellWidths[index] = max(cellWidths[index], TextWidth.of(cell))
      }
    }
    var widths = zip(headers, cellWidths).map { max(TextWidth.of($0), $1) }
    // Fit the width (two spaces between columns): keep as many leading columns as fit at
    // their least useful width (numbers whole, though their headers may be cut; text up to
    // 10), then cut the widest column above that until the table fits; the columns left out
    // are named below the table.
    let separator = 2
    let least = widths.indices.map { rightAligned[$0] ? min(widths[$0], max(cellWidths[$0], 4)) : min(widths[$0], 10) }
    func total(_ sizes: [Int]) -> Int { sizes.reduce(0, +) + separator * max(sizes.count - 1, 0) }
    var shown = widths.count
    while shown > 1, total(Array(least.prefix(shown))) > width { shown -= 1 }
    let hidden = headers.dropFirst(shown)
    widths = Array(widths.prefix(shown))
    while total(widths) > width,
      let column = widths.indices.filter({ widths[$0] > (shown == 1 ? 4 : least[$0]) }).max(by: { widths[$0] < widths[$1] })
    {
      widths[column] -= 1
    }
    func line(_ cells: [String], aligned: Bool) -> String {
      var parts: [String] = []
      for (index, cell) in cells.enumerated() where index < widths.count {
        let text = TextWidth.truncate(cell, to: widths[index])
        let isLast = index == widths.count - 1
        let right = aligned && rightAligned[index]
        parts.append(isLast && !right ? text : TextWidth.pad(text, to: widths[index], right: right))
      }
      return parts.joined(separator: String(repeating: " ", count: separator))
    }
    var lines = [line(headers, aligned: false)]
    lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: String(repeating: " ", count: separator)))
    for row in rows { lines.append(line(row, aligned: true)) }
    if !hidden.isEmpty {
      lines.append("(\(hidden.count) more column\(hidden.count == 1 ? "" : "s") need a wider terminal: \(hidden.joined(separator: ", ")))")
    }
    return lines
  }
}
