import Foundation
import Testing

/// The custom REPL of this package (outside the D2S package) runs `--demo` with no
/// environment variable: it finds the demo data from the D2S package's own location.
@Suite struct DemoTests {
  /// The `dvd-repl` built beside this test bundle (`swift build --build-tests` builds it).
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
      .appendingPathComponent("dvd-repl")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: binary.path), "build dvd-repl first"))
  func demoWithoutD2SResources() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dvd-demo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var environment = ProcessInfo.processInfo.environment
    environment["D2S_RESOURCES"] = nil
    environment["XDG_CACHE_HOME"] = folder.path  // the demo database is built here
    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["--demo", "-c", "inspect Actor 1"]
    process.environment = environment
    process.currentDirectoryURL = folder  // not this package's folder
    let output = folder.appendingPathComponent("out")
    let errors = folder.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let stderr = try String(contentsOf: errors, encoding: .utf8)
    #expect(process.terminationStatus == 0, "\(stderr)")
    #expect(stderr.isEmpty)
    #expect(try String(contentsOf: output, encoding: .utf8).hasPrefix("PENELOPE GUINESS\n"))
  }
}
