import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `source FILE` stops at its first failing line, and what the lines before it printed is
/// still shown, before the error: a save that was made says so.
@Suite struct SourceOutputTests {
  @Test func theLinesBeforeAFailureKeepTheirOutput() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-source-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inner = folder.appendingPathComponent("inner.d2s")
    try "count Language\ncount Nope\n".write(to: inner, atomically: true, encoding: .utf8)
    let outer = folder.appendingPathComponent("outer.d2s")
    try "edit Actor 1\nobject.firstName = 'SOURCED'\nsave\nsource \(inner.path)\ncount Film\n"
      .write(to: outer, atomically: true, encoding: .utf8)

    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    var lines: [(String, Bool)] = []
    let runner = REPLRunner(session: session) { lines.append(($0, $1)) }
    #expect(!runner.runScript(["source \(outer.path)"]))
    let output = lines.filter { !$0.1 }.map(\.0).joined(separator: "\n")
    let errors = lines.filter { $0.1 }.map(\.0)
    #expect(output.contains("saved Actor 1"), "\(lines)")
    #expect(output.contains("6"), "the inner file's first line: \(lines)")
    #expect(!output.contains("1000"), "nothing after the failure ran")
    #expect(errors.count == 1 && errors[0].contains("inner.d2s:2"), "\(errors)")
    #expect(lines.last?.1 == true, "the error comes last")
  }
}
