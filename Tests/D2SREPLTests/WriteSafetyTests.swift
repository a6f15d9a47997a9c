import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `write FILE` never replaces a file that is not rules unless told to (`--force`), and the
/// history file is private to its owner.
@Suite struct WriteSafetyTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("d2s-write-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func parsesTheForceFlag() throws {
    #expect(try CommandParser.parse("write a.rules") == .write("a.rules", force: false))
    #expect(
      try CommandParser.parse("write --force 'a b.rules'") == .write("a b.rules", force: true))
    #expect(throws: REPLError.self) { try CommandParser.parse("write --force") }
    #expect(throws: REPLError.self) { try CommandParser.parse("write") }
  }

  @Test func refusesToReplaceAFileThatIsNotRules() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let notes = dir.appendingPathComponent("notes.txt").path
    let original = "Dear diary,\nthis is not a rule file.\n"
    try original.write(toFile: notes, atomically: true, encoding: .utf8)
    let session = try REPLSession(width: 100)
    _ = try session.run("rule task = 'list' => displayNameForEntity = 'Things'")

    let refused = session.failure(of: "write \(notes)")
    #expect(refused.hasPrefix("refusing to replace \(notes): it is not a rule file"))
    #expect(refused.contains("write --force \(notes)"))
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == original)

    #expect(try session.run("write --force \(notes)") == "wrote 1 rules to \(notes)")
    #expect(try String(contentsOfFile: notes, encoding: .utf8).contains("displayNameForEntity"))
  }

  @Test func replacesRuleFilesEmptyFilesAndNewFiles() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let session = try REPLSession(width: 100)
    _ = try session.run("rule task = 'list' => displayNameForEntity = 'Things'")
    let rules = dir.appendingPathComponent("old.rules").path
    try "# old rules\ntask = 'inspect' => displayNameForEntity = 'Old'\n".write(
      toFile: rules, atomically: true, encoding: .utf8)
    #expect(try session.run("write \(rules)") == "wrote 1 rules to \(rules)")
    #expect(try !String(contentsOfFile: rules, encoding: .utf8).contains("Old"))
    let empty = dir.appendingPathComponent("empty.rules").path
    _ = FileManager.default.createFile(atPath: empty, contents: Data())
    #expect(try session.run("write \(empty)") == "wrote 1 rules to \(empty)")
    let fresh = dir.appendingPathComponent("fresh.rules").path
    #expect(try session.run("write \(fresh)") == "wrote 1 rules to \(fresh)")
  }

  @Test func refusesBinaryFilesAndDirectories() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let binary = dir.appendingPathComponent("photo.jpg").path
    let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0xC3])
    _ = FileManager.default.createFile(atPath: binary, contents: bytes)
    let session = try REPLSession(width: 100)
    #expect(session.failure(of: "write \(binary)").hasPrefix("refusing to replace \(binary)"))
    #expect(FileManager.default.contents(atPath: binary) == bytes)
    #expect(session.failure(of: "write --force \(dir.path)").hasPrefix("cannot write \(dir.path)"))
  }

  @Test func historyFileIsCreatedPrivate() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent(".d2s_history").path
    HistoryFile.prepare(atPath: path)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    HistoryFile.prepare(atPath: path)  // an existing file is kept as it is
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
