import Foundation
import Testing

@testable import D2STesting

/// A test's folders live in its process's own folder, which goes when the process ends: a run
/// of `make test` leaves nothing behind in the temporary directory (it once left 110 MB a run,
/// Python environments included).
@Suite struct TestFoldersTests {
  @Test func foldersAreMadeInTheProcesssOwnFolder() throws {
    let folder = try TestFolders.make("d2s-check")
    #expect(folder.deletingLastPathComponent().path == TestFolders.root.path)
    #expect(folder.lastPathComponent.hasPrefix("d2s-check-"))
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder))
    #expect(isFolder.boolValue)
    #expect(try TestFolders.make("d2s-check") != folder)
    #expect(
      TestFolders.root.lastPathComponent == "d2s-tests-\(ProcessInfo.processInfo.processIdentifier)"
    )
  }

  @Test(.timeLimit(.minutes(1))) func foldersOfEndedProcessesAreSwept() throws {
    // The removal at exit cannot be watched from inside the process; the sweep that removes
    // the folders of ended processes (a run that was killed) can.
    let stale = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-tests-\(Int32.max - 7)")
    try FileManager.default.createDirectory(
      at: stale.appendingPathComponent("d2s-web-x"), withIntermediateDirectories: true)
    #expect(SakilaSQLite.isStale(stale.lastPathComponent))
    TestFolders.removeStale()
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    #expect(
      FileManager.default.fileExists(atPath: TestFolders.root.path), "this process's own stays")
  }
}
