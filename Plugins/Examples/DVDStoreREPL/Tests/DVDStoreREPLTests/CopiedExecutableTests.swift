import Foundation
import Testing

/// `dvd-repl` copied away from its build folder, without RatingComponents' resource bundle:
/// the plugin's rules are not dropped silently. Every entry point stops with an error naming
/// where it looked and `D2S_RESOURCES`; with `D2S_RESOURCES` pointing at the bundle, or the
/// bundle copied beside it, the rules are there again.
@Suite struct CopiedExecutableTests {
  /// Runs `binary` with `arguments` in `folder`; its status and both outputs.
  static func run(
    _ binary: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = folder  // not the package's folder: no build folder here
    var base = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
    if let home = ProcessInfo.processInfo.environment["HOME"] { base["HOME"] = home }
    process.environment = base.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: stdout, as: UTF8.self),
      String(decoding: stderr, as: UTF8.self)
    )
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: TranscriptFileTests.binary.path),
      "build dvd-repl first"))
  func aPluginsMissingRulesStopTheLintWithWhereItLooked() throws {
    let fileManager = FileManager.default
    let folder = fileManager.temporaryDirectory.appendingPathComponent(
      "dvd-copied-\(UUID().uuidString)")
    try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? fileManager.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("dvd-repl")
    try fileManager.copyItem(at: TranscriptFileTests.binary, to: copy)
    let arguments = ["--lint", "--plugin", "RatingComponents"]

    let missing = try Self.run(copy, arguments, in: folder)
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("cannot find the resource rating.d2s"), "\(missing.stderr)")
    #expect(missing.stderr.contains("D2S_RESOURCES"))
    #expect(!missing.stdout.contains("no warnings"))

    let bundle = TranscriptFileTests.binary.deletingLastPathComponent()
      .appendingPathComponent("RatingComponents_RatingComponents.resources")
    let pointed = try Self.run(
      copy, arguments, in: folder, environment: ["D2S_RESOURCES": bundle.path])
    #expect(pointed.status == 0, "\(pointed.stderr)")
    #expect(pointed.stdout.contains("no warnings"))

    try fileManager.copyItem(
      at: bundle, to: folder.appendingPathComponent(bundle.lastPathComponent))
    let beside = try Self.run(copy, arguments, in: folder)
    #expect(beside.status == 0, "the bundle beside the copy: \(beside.stderr)")
  }
}
