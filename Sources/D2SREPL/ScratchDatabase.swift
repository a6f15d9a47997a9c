import Foundation
import PostgreSQLAdaptor

/// A fresh copy of a database for one transcript run, removed afterwards: an SQLite file
/// copied into a temporary folder (keeping its name, which is the database's name), or a
/// PostgreSQL database created from the original as a template.
struct ScratchDatabase {
  /// What to `open` instead of the original.
  let target: String
  private let cleanUp: () -> Void

  /// A copy of `original` (an SQLite path or `sqlite:PATH`, or a PostgreSQL URL or conninfo).
  init(copying original: String) throws {
    let path: String
    switch DatabaseLocation(original) {
    case .postgreSQL:
      (target, cleanUp) = try ScratchDatabase.postgresCopy(of: original)
      return
    case .sqlite(let target):
      path = target.hasPrefix("sqlite:") ? String(target.dropFirst("sqlite:".count)) : target
    }
    guard FileManager.default.fileExists(atPath: path) else {
      throw REPLError("no database file \(path)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
    do {
      try FileManager.default.copyItem(atPath: path, toPath: copy.path)
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw REPLError("cannot copy \(path): \((error as NSError).localizedDescription)")
    }
    target = copy.path
    cleanUp = { try? FileManager.default.removeItem(at: folder) }
  }

  /// Removes the copy.
  func remove() { cleanUp() }

  /// `CREATE DATABASE copy TEMPLATE original` on the same server; the copy is dropped after.
  private static func postgresCopy(of original: String) throws -> (String, () -> Void) {
    let (name, rewrite) = try databaseName(in: original)
    let copy =
      "d2s_check_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
    let admin = try PostgreSQLAdaptor(url: rewrite("postgres"))
    try admin.executeScript(
      "CREATE DATABASE \"\(copy)\" TEMPLATE \"\(name.replacing("\"", with: "\"\""))\"")
    return (
      rewrite(copy),
      {
        _ = try? PostgreSQLAdaptor(url: rewrite("postgres")).executeScript(
          "DROP DATABASE IF EXISTS \"\(copy)\" WITH (FORCE)")  // the session may be connected
      }
    )
  }

  /// The database a PostgreSQL URL or conninfo names, and a function that names another.
  private static func databaseName(in target: String) throws -> (String, (String) -> String) {
    if target.contains("://") {
      guard let components = URLComponents(string: target), components.path.count > 1 else {
        throw REPLError("cannot tell which database \(target) names")
      }
      let name = String(components.path.dropFirst())
      return (
        name,
        { other in
          var renamed = components
          renamed.path = "/" + other
          return renamed.string ?? target
        }
      )
    }
    let parts = target.split(separator: " ").map(String.init)
    guard let index = parts.firstIndex(where: { $0.hasPrefix("dbname=") }) else {
      throw REPLError("cannot tell which database \(target) names (no dbname=)")
    }
    let name = String(parts[index].dropFirst("dbname=".count))
    return (
      name,
      { other in
        var renamed = parts
        renamed[index] = "dbname=\(other)"
        return renamed.joined(separator: " ")
      }
    )
  }
}
