import Testing

@testable import Components

/// List tables on narrow terminals: numbers stay whole, text is cut with `…`, and columns
/// that cannot fit are named instead of squeezed to nothing.
@Suite struct TableTests {
  /// A table of text cells as the terminal renderer lays it out.
  struct TextTable {
    let headers: [String]
    let rightAligned: [Bool]
    let rows: [[String]]

    func lines(width: Int?) -> [String] {
      let columns = zip(headers, rightAligned).map {
        TableColumn(key: $0, label: $0, component: "", rightAligned: $1)
      }
      let rows = rows.map { TableRow(key: [], cells: $0.map { ShownValue(.string($0), text: $0) }) }
      let output = StringOutput()
      try? TableLayout(table: TableNode(columns: columns, rows: RowSource(rows)), width: width)
        .write(to: output)
      return output.text.split(separator: "\n").map(String.init)
    }
  }

  let table = TextTable(
    headers: ["Name", "Replacement Cost", "Notes", "Rating"],
    rightAligned: [false, true, false, false],
    rows: [["Alexander the Great", "1234.50", "a long note about it", "PG"]])

  @Test func wideEnoughShowsEverything() {
    #expect(
      table.lines(width: 100) == [
        "Name                 Replacement Cost  Notes                 Rating",
        "-------------------  ----------------  --------------------  ------",
        "Alexander the Great           1234.50  a long note about it  PG",
      ])
  }

  @Test func narrowWrapsHeadersThenCutsTextButNeverNumbers() {
    let lines = table.lines(width: 52)
    // The widest text columns shrink first (here both, evenly); the number stays whole.
    #expect(lines[0] == "Name            Replacement  Notes            Rating")
    #expect(lines[1] == "                Cost")
    #expect(lines[3] == "Alexander the…      1234.50  a long note ab…  PG")
    #expect(lines.allSatisfy { TextWidth.of($0) <= 52 })
  }

  @Test func textShrinksToTwelveColumnsAtMost() {
    let small = TextTable(
      headers: ["id", "Name"], rightAligned: [true, false], rows: [["1", "Alexander the Great"]])
    #expect(small.lines(width: 16) == ["id  Name", "--  ------------", " 1  Alexander t…"])
  }

  @Test func tooNarrowNamesTheColumnsLeftOut() {
    let lines = table.lines(width: 30)
    #expect(lines[3] == "Alexander the Gr…      1234.50")
    // The note wraps at spaces to the width.
    #expect(
      lines.suffix(2) == ["(2 more columns need a wider", "terminal: Notes, Rating)"])
    let one = TextTable(
      headers: ["Name", "Rating"], rightAligned: [false, false],
      rows: [["Alexander the Great", "PG"]])
    #expect(
      one.lines(width: 14).suffix(4) == ["(1 more column", "needs a wider", "terminal:", "Rating)"])
  }

  @Test func uncuttableColumnsStayWhole() {
    let columns = [
      TableColumn(key: "title", label: "Title", component: "DisplayString", cuttable: false),
      TableColumn(key: "notes", label: "Notes", component: "DisplayString"),
    ]
    let rows = [
      TableRow(
        key: [],
        cells: [
          ShownValue(.string("CHICAGO NORTH"), text: "CHICAGO NORTH"),
          ShownValue(
            .string(String(repeating: "x", count: 40)), text: String(repeating: "x", count: 40)),
        ])
    ]
    let output = StringOutput()
    try? TableLayout(table: TableNode(columns: columns, rows: RowSource(rows)), width: 30).write(
      to: output)
    #expect(output.text.contains("CHICAGO NORTH  xxxxxxxxxxxxxx…"))
  }

  @Test func widthsComeFromTheFirstThousandRowsAndLaterValuesRunPast() {
    let rows = (1...1001).map {
      [$0 == 1001 ? "a value longer than any before" : "row \($0)", "x"]
    }
    let lines = TextTable(headers: ["Name", "Flag"], rightAligned: [false, false], rows: rows)
      .lines(width: nil)
    #expect(lines[2] == "row 1     x")
    #expect(lines[1002] == "a value longer than any before  x")
  }
}
