@testable import Components
import Testing

/// List tables on narrow terminals: numbers stay whole, text is cut with `…`, and columns
/// that cannot fit are named instead of squeezed to nothing.
@Suite struct TableTests {
  let table = Table(
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
    let small = Table(headers: ["id", "Name"], rightAligned: [true, false], rows: [["1", "Alexander the Great"]])
    #expect(small.lines(width: 14) == ["id  Name", "--  ----------", " 1  Alexander…"])
  }

  @Test func tooNarrowNamesTheColumnsLeftOut() {
    let lines = table.lines(width: 22)
    #expect(lines[2] == "Alexander…     1234.50")
    #expect(lines.last == "(2 more columns need a wider terminal: Notes, Rating)")
  }
}
