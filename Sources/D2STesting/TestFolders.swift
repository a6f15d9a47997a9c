import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folders for a test's files (rule files, databases, a Python environment), all inside one
/// folder of the test process (`d2s-tests-PID` in the temporary directory, where
/// ``SakilaSQLite`` keeps its copies). That folder is removed when the process exits, and the
/// folders of a process that was killed are removed by the next test process that builds the
/// Sakila fixture: a test run leaves nothing behind.
///
/// ```swift
/// let folder = try TestFolders.make("d2s-web")  // …/d2s-tests-4242/d2s-web-1
/// ```
public enum TestFolders {
  /// This process's folder.
  public static var root: URL { SakilaSQLite.copies }

  /// A new folder `PREFIX-N` in ``root``, N counting this process's folders (paths stay
  /// short: a terminal test's 120 columns show a rule file's path whole).
  public static func make(_ prefix: String) throws -> URL {
    _ = removedAtExit
    let number = made.wrappingAdd(1, ordering: .relaxed).newValue
    let folder = root.appendingPathComponent("\(prefix)-\(number)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  private static let made = Atomic(0)

  /// Removes the folders and fixtures of test processes that have ended (never those of one
  /// still running beside this one).
  public static func removeStale() {
    let temporary = FileManager.default.temporaryDirectory
    for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    where SakilaSQLite.isStale(name) {
      try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
  }

  /// Registered once: ``root`` and the Sakila fixture go when the process exits normally.
  private static let removedAtExit: Void = {
    atexit {
      try? FileManager.default.removeItem(at: SakilaSQLite.copies)
      try? FileManager.default.removeItem(atPath: SakilaSQLite.fixturePath)
    }
  }()
}
