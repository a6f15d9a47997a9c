import D2SModel
import EnvKeys
import Testing

@testable import Components

/// The CSV renderer's fields: RFC 4180 quoting, NULL against the empty text, and the
/// spreadsheet-safe form, stored and as shown.
@Suite struct CSVRendererTests {
  @Test func quotingAndNull() {
    #expect(
      CSVRenderer.record([.null, .text(""), .text("a,b"), .text("say \"hi\"")])
        == ",\"\",\"a,b\",\"say \"\"hi\"\"\"\r\n")
    #expect(
      CSVRenderer.record([.text("two\nlines"), .text("cr\rx")]) == "\"two\nlines\",\"cr\rx\"\r\n")
  }

  @Test func theSafeFormGuardsEveryTextAFormulaCouldBe() {
    let stored = CSVRenderer(options: CSVOptions(spreadsheetSafe: true))
    #expect(stored.field(ShownValue(.string("=1+1"), text: "=1+1")) == .text("'=1+1"))
    #expect(stored.field(ShownValue(.int(-5), text: "-5")) == .text("-5"), "a number is none")
    #expect(stored.field(ShownValue(.string("\tx"), text: "\tx")) == .text("'\tx"))
    // As shown, a to-one's title (its value the key) and a formatted value are text too.
    let shown = CSVRenderer(options: CSVOptions(shownText: true, spreadsheetSafe: true))
    #expect(
      shown.field(ShownValue(.int(3), text: "=HYPERLINK(\"x\")")) == .text("'=HYPERLINK(\"x\")"))
    #expect(shown.field(ShownValue(.int(-5), text: "-5")) == .text("-5"))
    #expect(shown.field(ShownValue(.decimal(-5), text: "-$5.00")) == .text("'-$5.00"))
  }
}
