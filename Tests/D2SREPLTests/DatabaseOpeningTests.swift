import D2SApplication
import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Testing

@testable import D2SREPL

/// A database opened on a thread of its own while the plugins are installed: the same
/// database, the same errors at the same place, under the caller's dependencies.
@Suite struct DatabaseOpeningTests {
  @Test func itOpensTheDatabaseUnderTheCallersDependencies() throws {
    let path = try SakilaSQLite.copy()
    let statements = CapturedLog()
    let database = try withDependencies {
      $0.sqlLogger = statements.logger
    } operation: {
      try DatabaseOpening(path).database()
    }
    #expect(database.name == "sakila")
    #expect(database.model.entity(named: "Film") != nil)
    let logged = statements.lines.withLock { $0 }
    #expect(logged.contains { $0.contains("sqlite_master") }, "\(logged)")
  }

  @Test func anErrorIsThrownWhereTheDatabaseIsAskedFor() throws {
    let opening = DatabaseOpening("/nonexistent/d2s/nothing.db")
    for _ in 0..<2 {
      #expect {
        _ = try opening.database()
      } throws: { error in
        "\(error)".contains("no database file at /nonexistent/d2s/nothing.db")
      }
    }
  }

  @Test func openingsNeverAskedForEndWithoutHarm() throws {
    let path = try SakilaSQLite.copy()
    for _ in 0..<8 { _ = DatabaseOpening(path, readOnly: true) }
    let database = try DatabaseOpening(path, readOnly: true).database()
    #expect(database.model.entities.count > 10)
  }

  @Test func aSessionUsesItsOpeningOnlyForTheSameTargetAndMode() throws {
    let path = try SakilaSQLite.copy()
    let other = URL(fileURLWithPath: path).deletingLastPathComponent()
      .appendingPathComponent("other.db").path
    try FileManager.default.copyItem(atPath: path, toPath: other)

    let session = try REPLSession(width: 100)
    session.opening = DatabaseOpening(path)
    #expect(try session.run("open \(other)").hasPrefix("opened other: "))
    #expect(session.opening != nil, "an opening of another target waits for its own open")

    session.readOnly = true
    #expect(try session.run("open \(path)").hasPrefix("opened sakila: "))
    #expect(session.opening != nil, "a writable opening is not used for a read-only open")
    _ = try session.run("inspect Actor 1")
    #expect(try session.run("show isEntityReadOnly").hasPrefix("isEntityReadOnly = true"))

    session.readOnly = false
    #expect(try session.run("open \(path)").hasPrefix("opened sakila: "))
    #expect(session.opening == nil)
    _ = try session.run("inspect Actor 1")
    #expect(try session.run("show isEntityReadOnly").hasPrefix("isEntityReadOnly = false"))
  }
}
