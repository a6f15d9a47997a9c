import D2SModel
import Foundation
import SQLiteAdaptor

/// The demo database: Sakila built on first use from the SQL shipped with the package, in
/// `$XDG_CACHE_HOME/d2s` or `~/.cache/d2s`, and the demo rules.
public enum Demo {
  /// The folder holding `sakila/*.sql` and `demo.d2s`: `$D2S_RESOURCES`, else `data` beside
  /// the executable or in a folder above it (a checkout's build folder), else the package's
  /// own `data` folder, found from this source file's path: a REPL built in another package
  /// (from a checkout of D2S as a dependency) needs no environment variable.
  package static func resources() throws -> URL {
    let manager = FileManager.default
    func holdsDemo(_ folder: URL) -> Bool {
      manager.fileExists(atPath: folder.appendingPathComponent("sakila/sqlite-schema.sql").path)
    }
    if let override = ProcessInfo.processInfo.environment["D2S_RESOURCES"] {
      let url = URL(fileURLWithPath: override)
      if holdsDemo(url) { return url }
      throw ApplicationError("D2S_RESOURCES=\(override) holds no sakila/sqlite-schema.sql")
    }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = folder.appendingPathComponent("data")
      if holdsDemo(candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    if holdsDemo(packageData) { return packageData }
    throw ApplicationError(
      "cannot find the demo data (data/sakila beside d2s-repl or above it, or \(packageData.path)); set D2S_RESOURCES to the folder holding sakila/"
    )
  }

  /// `data` of the package this file was compiled from (`Sources/D2SApplication/Demo.swift`).
  package static let packageData = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data")

  /// The demo database path, built if missing (or with `reset`).
  public static func database(reset: Bool) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    let cache =
      environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(
        ".cache")
    let folder = cache.appendingPathComponent("d2s")
    let path = folder.appendingPathComponent("sakila.db").path
    let manager = FileManager.default
    if reset { try? manager.removeItem(atPath: path) }
    if manager.fileExists(atPath: path) { return path }
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    try build(at: path)
    return path
  }

  /// Builds the sample from the SQL shipped with the package into a new file at `path`
  /// (written beside it first, then moved into place).
  package static func build(at path: String) throws {
    let manager = FileManager.default
    let data = try resources().appendingPathComponent("sakila")
    let building = path + ".building"
    try? manager.removeItem(atPath: building)
    _ = manager.createFile(atPath: building, contents: nil)
    do {
      let adaptor = try SQLiteAdaptor(path: building)
      try adaptor.executeScript(
        try String(contentsOf: data.appendingPathComponent("sqlite-schema.sql"), encoding: .utf8))
      var triggers: [(String, String)] = []
      try adaptor.query(
        SQLStatement(
          raw: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid"),
        columns: [nil, nil]
      ) {
        triggers.append(($0[0].stringValue ?? "", $0[1].stringValue ?? ""))
      }
      for (name, _) in triggers { try adaptor.executeScript("DROP TRIGGER \"\(name)\"") }
      try adaptor.executeScript(
        try String(contentsOf: data.appendingPathComponent("sqlite-data.sql"), encoding: .utf8))
      for (_, sql) in triggers { try adaptor.executeScript(sql) }
    } catch {
      try? manager.removeItem(atPath: building)
      throw error
    }
    try manager.moveItem(atPath: building, toPath: path)
  }

  /// The demo rules' path (`demo.d2s`).
  public static func rulesPath() throws -> String {
    try resources().appendingPathComponent("demo.d2s").path
  }
}
