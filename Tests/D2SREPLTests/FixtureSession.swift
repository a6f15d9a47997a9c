import D2STesting
import Foundation

@testable import D2SREPL

/// Databases made from the SQL files in `Fixtures/`, on either test server.
enum FixtureSession {
  /// A new database from `Fixtures/NAME.sql`: a file path (SQLite) or a URL (PostgreSQL).
  static func database(_ name: String, on server: TestServer) throws -> String {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures")
    let sql = try String(contentsOf: folder.appendingPathComponent(name + ".sql"), encoding: .utf8)
    let prefix = name.replacingOccurrences(of: "-", with: "_")
    return switch server {
    case .sqlite: try TestDatabases.sqliteFile(sql, named: prefix)
    case .postgresql: try PostgresSakila.database(from: sql, prefix: prefix)
    }
  }

  /// A REPL session of `width` columns on a new database from `Fixtures/NAME.sql`.
  static func open(_ name: String, on server: TestServer, width: Int = 100) throws -> REPLSession {
    try open(database: try database(name, on: server), width: width)
  }

  /// A REPL session of `width` columns on `database` (a path or a URL): a second user of a
  /// database another session has open, for conflicts.
  static func open(database: String, width: Int = 100) throws -> REPLSession {
    let session = try REPLSession(width: width)
    _ = try session.run("open \(database)")
    return session
  }
}

extension String {
  /// The page without its footer's note on how to see a hidden key (`· "with id" shows the
  /// key for inspect Film ID`), so that a test can assert the count the footer ends with.
  var withoutKeyHint: String {
    guard let note = range(of: " · \"with ", options: .backwards) else { return self }
    return String(self[..<note.lowerBound])
  }
}
