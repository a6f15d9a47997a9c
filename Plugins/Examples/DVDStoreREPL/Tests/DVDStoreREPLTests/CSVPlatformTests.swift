import CSVPlatform
import Components
import D2SModel
import D2STesting
import Foundation
import Testing

/// The `csv` platform a plugin adds: through the built `dvd-repl`, and its quoting.
@Suite struct CSVPlatformTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: TranscriptFileTests.binary.path),
      "build dvd-repl first"))
  func formatCSVListsActors() throws {
    let process = Process()
    process.executableURL = TranscriptFileTests.binary
    process.arguments = [
      try SakilaSQLite.copy(), "--format", "csv", "-c", "list Actor order by id limit 2",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      text == """
        First Name,Last Name,Last Update
        PENELOPE,GUINESS,2006-02-15 04:34:33
        NICK,WAHLBERG,2006-02-15 04:34:33

        """)
  }

  @Test func fieldsAreQuotedAsRFC4180Says() throws {
    let table = TableNode(
      columns: [
        TableColumn(key: "name", label: "Name, full", component: "DisplayString"),
        TableColumn(key: "note", label: "Note", component: "DisplayString"),
      ],
      rows: RowSource([
        TableRow(
          key: [.int(1)],
          cells: [
            ShownValue(.string("say \"hi\""), text: "say \"hi\""),
            ShownValue(.string("two\nlines"), text: "two\nlines"),
          ])
      ]))
    let output = StringOutput()
    try CSVRenderer().render(.table(table), to: output)
    #expect(output.text == "\"Name, full\",Note\n\"say \"\"hi\"\"\",\"two\nlines\"\n")
  }
}
