import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `load` and `source` say why a path cannot be read: a directory is "a directory" (it was
/// "NSCocoaErrorDomain error 256"); an empty device such as `/dev/null` is read as empty (it
/// was "You don't have permission").
@Suite struct ReadRefusalTests {
  @Test func aDirectoryIsNamedAndAnEmptyDeviceIsRead() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-read-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let session = try REPLSession(width: 120)
    for command in ["load", "source"] {
      #expect {
        try session.run("\(command) \(folder.path)")
      } throws: { "\($0)".contains("it is a directory") }
      #expect {
        try session.run("\(command) \(folder.path)/nope.d2s")
      } throws: { "\($0)".contains("no such file") }
    }
    #expect(try session.run("source /dev/null") == "")
    #expect(try session.run("load /dev/null").contains("loaded 0 rules"))
  }
}
