import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Scripts in, exact text out (snapshot files under Snapshots/).
@Suite struct TranscriptTests {
  /// Runs `script` on a private copy of Sakila; returns the transcript (errors on `error:`
  /// lines, in order) and whether every command succeeded.
  func transcript(_ script: String, bail: Bool = false) throws -> (String, Bool) {
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    final class Collector: @unchecked Sendable { var lines: [String] = [] }
    let collector = Collector()
    let runner = REPLRunner(session: session, bail: bail) { text, _ in collector.lines.append(text)
    }
    let ok = runner.runScript(
      script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    return (collector.lines.joined(separator: "\n") + "\n", ok)
  }

  static var snapshots: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
  }

  func check(_ text: String, _ name: String) {
    let file = Self.snapshots.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
      || !FileManager.default.fileExists(atPath: file.path)
    {
      try? FileManager.default.createDirectory(
        at: Self.snapshots, withIntermediateDirectories: true)
      try? text.write(to: file, atomically: true, encoding: .utf8)
      Issue.record("recorded snapshot \(name).txt; check it and run again")
      return
    }
    #expect(text == (try? String(contentsOf: file, encoding: .utf8)), "snapshot \(name) differs")
  }

  @Test func browsing() throws {
    let (text, ok) = try transcript(
      """
      entities
      *true* => visibleEntityNames = ('Customer', 'Actor')
      rule *true* => visibleEntityNames = ('Customer', 'Actor')
      rule entity.name = 'Actor' => displayNameForEntity = 'Moviestars'
      entities
      list Actor where lastName like 'Z*' order by firstName desc
      list Customer where address.city.country.country = 'Canada' limit 2
      next
      prev
      inspect Customer 1
      follow address
      show title
      show object.phone
      explain displayNameForEntity
      rules
      drop 1
      drop 1
      rules --all title
      """)
    #expect(!ok)
    check(text, "browsing")
  }

  @Test func editingAndPermissions() throws {
    let (text, ok) = try transcript(
      """
      login Mike nope
      login Mike 12345
      show user
      rule user.username = 'Mike' AND object.firstName = 'PENELOPE' => isObjectEditable = false ; high
      edit Actor 1
      edit Actor 2
      object.firstName = 'NICKY'
      inspect Actor 3
      object.lastName = nil
      save
      revert
      edit Actor 2
      object.firstName = 'NICKY'
      save
      new Language
      object.name = 'Klingon'
      save
      delete Language 7
      readOnlyEntityNames = ('Staff')
      edit Staff 1
      unset readOnlyEntityNames
      context
      logout
      """)
    #expect(!ok)
    check(text, "editing")
  }

  @Test func errorsChangeNothing() throws {
    let (text, ok) = try transcript(
      """
      list Nope
      list Film where title = 'x' limit -1
      list Film where (title = 'x'
      inspect Film 99999
      inspect FilmActor 1
      task = 42
      titel = 'x'
      rule title = Moviestars
      show nothing
      explain
      object.title = 'x'
      follow rentals
      frobnicate
      help save
      """)
    #expect(!ok)
    check(text, "errors")
  }

  @Test func bailStopsAtTheFirstFailure() throws {
    let (text, ok) = try transcript("entities\nfrobnicate\nentities", bail: true)
    #expect(!ok)
    #expect(
      text.components(separatedBy: "sakila\n======").count == 2, "the last command did not run")
  }
}
