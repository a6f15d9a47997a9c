import Components
import D2SModel
import D2STesting
import Foundation
import TSVPlatform
import Testing

/// The `tsv` platform a plugin adds: through the built `dvd-repl`, and its escaping.
@Suite struct TSVPlatformTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: TranscriptFileTests.binary.path),
      "build dvd-repl first"))
  func formatTSVListsActors() throws {
    let process = Process()
    process.executableURL = TranscriptFileTests.binary
    process.arguments = [
      try SakilaSQLite.copy(), "--format", "tsv", "-c", "list Actor order by id limit 2",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      text == """
        First Name\tLast Name\tLast Update
        PENELOPE\tGUINESS\t2006-02-15 04:34:33
        NICK\tWAHLBERG\t2006-02-15 04:34:33

        """)
  }

  @Test func tabsLineBreaksAndBackslashesAreEscaped() throws {
    let table = TableNode(
      columns: [
        TableColumn(key: "name", label: "Name\tfull", component: "DisplayString"),
        TableColumn(key: "note", label: "Note", component: "DisplayString"),
      ],
      rows: RowSource([
        TableRow(
          key: [.int(1)],
          cells: [
            ShownValue(.string("C:\\films\\new"), text: "C:\\films\\new"),
            ShownValue(.string("two\nlines\r\nand\ta tab"), text: "two\nlines\r\nand\ta tab"),
          ])
      ]))
    let output = StringOutput()
    try TSVRenderer().render(.table(table), to: output)
    // Records end in a line feed and fields are separated by tabs; the ones inside a value are
    // written as `\t`, `\n`, `\r` and a backslash as `\\`.
    #expect(
      output.text == "Name\\tfull\tNote\n" + "C:\\\\films\\\\new\ttwo\\nlines\\r\\nand\\ta tab\n")
    let records = output.text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(
      records == [
        [#"Name\tfull"#, "Note"], [#"C:\\films\\new"#, #"two\nlines\r\nand\ta tab"#], [""],
      ])
  }

  @Test func aValueWithNothingToEscapeIsWrittenAsItIs() {
    #expect(TSVRenderer.field("say \"hi\", twice") == "say \"hi\", twice")
    #expect(TSVRenderer.record(["a", "", "b c"]) == "a\t\tb c\n")
  }
}
