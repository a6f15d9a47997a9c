import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Every page BasicLook shows, rendered as Markdown and as JSON Lines (snapshot files under
/// Snapshots/formats/), and the JSON contract: one object per line, typed values, errors on
/// stderr as objects.
@Suite struct FormatTests {
  /// The demo rules of this checkout.
  static let demoRules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/demo.d2s"
    ).path

  /// The pages, each reached by commands run before it is rendered.
  static let pages: [(name: String, commands: [String])] = [
    ("entities", ["entities"]),
    ("list", ["list Film where rating = 'G' order by title limit 2"]),
    ("inspect", ["inspect Film 1"]),
    // The demo rules' sections.
    ("inspect-sections", ["load \(demoRules)", "inspect Film 1"]),
    ("edit-sections", ["load \(demoRules)", "login Mike 12345", "edit Film 1"]),
    ("edit-invalid", ["new Language"]),
    ("select", ["edit Film 1", "choose language where name like '*a*'"]),
    ("login", ["entity = 'Staff'", "task = 'login'", "render"]),
    ("error", ["task = 'frobnicate'", "render"]),
  ]

  /// Runs `commands` in `format` on a private copy of Sakila; returns the last command's
  /// output and everything written to stderr.
  func run(_ commands: [String], format: String) throws -> (output: String, errors: [String]) {
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("platform = '\(format)'")
    final class Collector: @unchecked Sendable {
      var output = ""
      var errors: [String] = []
    }
    let collector = Collector()
    let runner = REPLRunner(session: session) { text, isError in
      if isError { collector.errors.append(text) } else { collector.output = text }
    }
    for command in commands { runner.runLine(command) }
    return (collector.output, collector.errors)
  }

  func check(_ text: String, _ name: String) {
    let folder = TranscriptTests.snapshots.appendingPathComponent("formats")
    let file = folder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
      || !FileManager.default.fileExists(atPath: file.path)
    {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? (text + "\n").write(to: file, atomically: true, encoding: .utf8)
      Issue.record("recorded snapshot formats/\(name); check it and run again")
      return
    }
    #expect(
      text + "\n" == (try? String(contentsOf: file, encoding: .utf8)), "snapshot \(name) differs")
  }

  @Test(arguments: pages.map(\.name)) func markdown(page: String) throws {
    let commands = Self.pages.first { $0.name == page }?.commands ?? []
    let (output, errors) = try run(commands, format: "markdown")
    #expect(errors.isEmpty)
    check(output, "\(page).md")
  }

  @Test(arguments: pages.map(\.name)) func json(page: String) throws {
    let commands = Self.pages.first { $0.name == page }?.commands ?? []
    let (output, errors) = try run(commands, format: "json")
    #expect(errors.isEmpty)
    #expect(!output.contains("\n"), "one object, one line")
    let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    #expect(object?["page"] is String && object?["task"] is String && object?["title"] is String)
    check(output, "\(page).json")
  }

  @Test func aListCarriesTypedValuesItsWindowAndItsTotal() throws {
    let (output, _) = try run(
      ["list Film where rating = 'G' order by title limit 2"], format: "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let rows = try #require(object["rows"] as? [[String: Any]])
    let titles = rows.compactMap { (($0["cells"] as? [[String: Any]])?.first?["value"]) as? String }
    #expect(titles == ["ACE GOLDFINGER", "AFFAIR PREJUDICE"])
    #expect((object["total"] as? [String: Any])?["value"] as? Int == 178)
    #expect((object["total"] as? [String: Any])?["kind"] as? String == "exact")
    #expect(output.contains(#"{"value":4.99,"text":"4.99"}"#), "decimals are written exactly")
    #expect(output.contains(#""key":[2]"#), "a primary key is an array")
    #expect(output.contains(#""window":{"offset":0,"limit":2}"#))
  }

  @Test func messagesShowAndErrorsAreObjects() throws {
    #expect(
      try run(["rule task = 'list' => title = 'x'"], format: "json").output
        == #"{"message":"rule 1 added"}"#)
    #expect(
      try run(["show task"], format: "json").output
        == #"{"key":"task","value":"'query'","source":"default"}"#)
    let failed = try run(["list Film where rating ="], format: "json")
    #expect(
      failed.errors == [#"{"error":"expected a value, found end of input","line":1,"column":25}"#])
    #expect(
      try run(["list Nothing"], format: "json").errors == [#"{"error":"no entity named Nothing"}"#])
    #expect(
      try run(["platform = 'json'", "unset platform", "show platform"], format: "json").output
        == "platform = 'terminal'  # default")
  }
}
