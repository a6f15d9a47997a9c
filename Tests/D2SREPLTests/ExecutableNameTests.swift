import Foundation
import Testing

@testable import D2SREPL

/// Help and usage lines name the executable that runs: a custom REPL says its own name.
@Suite struct ExecutableNameTests {
  @Test func theLastPathComponentOfArgumentZero() {
    #expect(ExecutableName.of("/usr/local/bin/dvd-repl", fallback: "d2s-repl") == "dvd-repl")
    #expect(ExecutableName.of("dvd-repl", fallback: "d2s-repl") == "dvd-repl")
    #expect(ExecutableName.of(nil, fallback: "d2s-repl") == "d2s-repl")
    #expect(ExecutableName.of("", fallback: "d2s-repl") == "d2s-repl")
    // As a split on "/" read it: empty components do not count.
    #expect(ExecutableName.of("/opt/tools/", fallback: "d2s-repl") == "tools")
    #expect(ExecutableName.of("bin//dvd-repl", fallback: "d2s-repl") == "dvd-repl")
    #expect(ExecutableName.of("///", fallback: "d2s-repl") == "d2s-repl")
    #expect(ExecutableName.of("/usr/bin/répl-é", fallback: "d2s-repl") == "répl-é")
  }

  @Test(.enabled(if: TraceBinaryTests.enabled, "build d2s-repl first"))
  func aCopyUnderAnotherNameSaysThatNameInItsHelp() throws {
    try withTemporaryFolder("d2s-name") { folder in
      let copy = folder.appendingPathComponent("my-repl")
      try FileManager.default.copyItem(at: BinaryTests.binary, to: copy)
      let help = try BinaryTests().run(["--help"], program: copy.path)
      #expect(help.status == 0)
      #expect(help.stdout.contains("USAGE: my-repl "), "\(help.stdout.prefix(200))")
      #expect(!help.stdout.contains("d2s-repl"))
      let original = try BinaryTests().run(["--help"])
      #expect(original.stdout.contains("USAGE: d2s-repl "))
    }
  }
}
