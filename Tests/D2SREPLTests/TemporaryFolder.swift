import D2STesting
import Foundation

/// Runs `body` with a new folder (``TestFolders``), removed afterwards, whatever `body` did.
func withTemporaryFolder<T>(_ prefix: String, _ body: (URL) throws -> T) throws -> T {
  let folder = try TestFolders.make(prefix)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}
