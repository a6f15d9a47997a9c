import Foundation
import Testing

/// Compares `text` with `Snapshots/<name>.txt` beside this file; `RECORD_SNAPSHOTS=1`
/// rewrites the file instead (review the diff like code). A missing snapshot is recorded and
/// the test fails, so a new snapshot is always looked at.
func assertSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Snapshots")
  let file = folder.appendingPathComponent(name + ".txt")
  let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? text.write(to: file, atomically: true, encoding: .utf8)
    if !record {
      Issue.record(
        "recorded a new snapshot \(name).txt; check it and run again",
        sourceLocation: sourceLocation)
    }
    return
  }
  #expect(text == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}
