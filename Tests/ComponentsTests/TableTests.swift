@testable import Components
import Testing

/// List tables on narrow terminals: numbers stay whole, text is cut with `…`, and columns
/// that cannot fit are named instead of squeezed to nothing.
@Suite struct TableTests {
  /// A table of text cells as the terminal renderer lays it out.
  struct TextTable {
    let headers: [String]
    let rightAligned: [Bool]
    let rows: [[String]]

    func lines(width: Int?) -> [String] {
      let columns = zip(headers, rightAligned).map { TableColumn(key: $0, label: $0, component: "", rightAligned: $1) }
      let rows = rows.map { TableRow(key: [], cells: $0.map { ShownValue(.string($0), text: $0) }) }
      let output = StringOutput()
      try? TableLayout(table: TableNode(columns: columns, rows: RowSource(rows)), width: width).write(to: output)
      return output.text.split(separator: "\n").map(String.init)
    }
  }

  let table = TextTable(
    headers: ["Name", "Replacement Cost", "Notes", "Rating"], rightAligned: [false, true, false, false],
    rows: [["Alexander the Great", "1234.50", "a long note about it", "PG"]])

  @Test func wideEnoughShowsEverything() {
    #expect(table.lines(width: 100) == [
      "Name                 Replacement Cost  Notes                 Rating",
      "-------------------  ----------------  --------------------  ------",
      "Alexander the Great           1234.50  a long note about it  PG",
    ])
  }

  @Test func narrowCutsTextBeforeNumbers() {
    let lines = table.lines(width: 44)
    #expect(lines[2] == "Alexander…      1234.50  a long not…  PG")
    #expect(lines[0] == "Name        Replacemen…  Notes        Rating")
    #expect(lines.allSatisfy { TextWidth.of($0) <= 44 })
  }

  @Test func narrowNumberColumnsKeepTheirOwnWidth() {
    let small = TextTable(headers: ["id", "Name"], rightAligned: [true, false], rows: [["1", "Alexander the Great"]])
    #expect(small.lines(width: 14) == ["id  Name", "--  ----------", " 1  Alexander…"])
  }

  @Test func tooNarrowNamesTheColumnsLeftOut() {
    let lines = table.lines(width: 22)
    #expect(lines[2] == "Alexander…     1234.50")
    #expect(lines.last == "(2 more columns need a wider terminal: Notes, Rating)")
  }

  @Test func widthsComeFromTheFirstThousandRowsAndLaterValuesRunPast() {
    let rows = (1...1001).map { [$0 == 1001 ? "a value longer than any before" : "row \($0)", "x"] }
    let lines = TextTable(headers: ["Name", "Flag"], rightAligned: [false, false], rows: rows).lines(width: nil)
    #expect(lines[2] == "row 1     x")
    #expect(lines[1002] == "a value longer than any before  x")
  }
}
