import D2STesting
import Foundation
import Testing

/// The transcripts under Transcripts/, run through the built `dvd-repl --check`: each must
/// print what it says, on a fresh copy of Sakila.
@Suite struct TranscriptFileTests {
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("dvd-repl")
  }

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: binary.path), "build dvd-repl first"),
    arguments: ["plugins.transcript"])
  func transcriptPasses(name: String) throws {
    let process = Process()
    process.executableURL = Self.binary
    process.currentDirectoryURL = Self.packageRoot
    process.arguments = [try SakilaSQLite.copy(), "--check", "Transcripts/\(name)"]
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "100"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
  }
}
