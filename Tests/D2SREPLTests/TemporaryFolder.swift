import Foundation

/// Runs `body` with a new folder under the temporary directory (`PREFIX-UUID`), removed
/// afterwards, whatever `body` did.
func withTemporaryFolder<T>(_ prefix: String, _ body: (URL) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}
