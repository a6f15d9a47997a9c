import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `d2s-repl --demo --copy FILE`: the bundled sample as a file of the user's, never written
/// over an existing one.
@Suite struct DemoCopyTests {
  @Test(.enabled(if: TraceBinaryTests.enabled, "build d2s-repl first"))
  func theSampleIsWrittenToANewFileOnly() throws {
    try withTemporaryFolder("d2s-copy") { folder in
      let environment = [
        "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
        "D2S_RESOURCES": SakilaSQLite.dataFolder.deletingLastPathComponent().path,
      ]
      let target = folder.appendingPathComponent("mine.db").path
      let copied = try BinaryTests().run(
        ["--demo", "--copy", target], environment: environment)
      #expect(copied.status == 0, "\(copied.stderr)")
      #expect(copied.stdout == "wrote the Sakila sample database to \(target)\n")
      let listed = try BinaryTests().run([target, "-c", "count Film"])
      #expect(listed.stdout == "1000\n")
      #expect(
        !FileManager.default.fileExists(
          atPath: folder.appendingPathComponent("cache/d2s/sakila.db").path),
        "the demo's own copy is neither made nor read")

      // An existing file stays as it is.
      try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
      let again = try BinaryTests().run(["--demo", "--copy", target], environment: environment)
      #expect(again.status == 2)
      #expect(again.stderr == "error: \(target) exists; --copy writes only a new file\n")
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "mine")

      let alone = try BinaryTests().run(["--copy", folder.appendingPathComponent("x.db").path])
      #expect(alone.status == 2)
      #expect(
        alone.stderr
          == "error: --copy goes with --demo, and takes no database: it writes the sample\n")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.db").path))
    }
  }
}
