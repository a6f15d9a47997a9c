/// A text table: column widths from the rows shown, cut with `…` to fit the width.
struct Table {
  let headers: [String]
  let rightAligned: [Bool]
  let rows: [[String]]

  func lines(width: Int) -> [String] {
    guard !headers.isEmpty else { return [] }
    var widths = headers.map(TextWidth.of)
    for row in rows {
      for (index, cell) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], TextWidth.of(cell))
      }
    }
    // Shrink the widest columns until the table fits (two spaces between columns).
    let separator = 2
    while widths.reduce(0, +) + separator * (widths.count - 1) > width, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
      widths[widest] > 4
    {
      widths[widest] -= 1
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
    return lines
  }
}
