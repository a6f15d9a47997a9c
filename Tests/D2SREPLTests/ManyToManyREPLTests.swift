import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Sakila read as a person expects, through the REPL: many-to-many relationships followed
/// from an inspected film, and titles made of first and last names, on SQLite and PostgreSQL.
@Suite struct ManyToManyREPLTests {
  func session(_ server: TestServer) throws -> REPLSession {
    let session = try REPLSession(width: 100, defaultLimit: 20)
    _ = try session.run(
      "open \(server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy())")
    return session
  }

  @Test(arguments: TestServer.available)
  func followActorsFromAFilm(server: TestServer) throws {
    let session = try session(server)
    let film = try session.run("inspect Film 1")
    #expect(film.contains("\nActors             10 (follow actors)\n"))
    #expect(
      !film.contains("Film Actors"), "the link table's to-many gives way to the flattened one")
    let before = try session.database.adaptor.statementCount
    let actors = try session.run("follow actors")
    #expect(
      try session.database.adaptor.statementCount - before == 2,
      "one query for the rows, one for the count")
    #expect(actors.hasPrefix("Actors of ACADEMY DINOSAUR\n==========================\n"))
    #expect(actors.contains("PENELOPE    GUINESS"))
    #expect(actors.withoutKeyHint.hasSuffix("10 Actor"))
    #expect(
      try session.run("show auxiliaryQualifier") == #"auxiliaryQualifier = "films.id = 1"  # set"#)
    _ = try session.run("inspect Film 1")
    #expect(
      try session.run("follow filmActors").withoutKeyHint.hasSuffix("10 FilmActor"),
      "still followed by name")
    #expect(try session.run("inspect Actor 1").hasPrefix("PENELOPE GUINESS\n================\n"))
    let acting = try session.run("list Actor where films.title = 'ACADEMY DINOSAUR'")
    #expect(acting.withoutKeyHint.hasSuffix("10 Actor") && acting.contains("GUINESS"))
  }
}

/// `link` and `unlink`: one link row of a many-to-many added or removed, on both databases,
/// under the rules' permissions.
@Suite struct LinkCommandTests {
  static let demoRules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/demo.d2s"
    ).path

  /// Film 1's actors as `film_actor` stores them.
  static func actors(_ session: REPLSession) throws -> [String] {
    var keys: [String] = []
    try session.database.adaptor.query(
      SQLStatement(raw: "SELECT actor_id FROM film_actor WHERE film_id = 1 ORDER BY actor_id"),
      columns: [nil]
    ) { keys.append($0[0].description) }
    return keys
  }

  @Test(arguments: TestServer.available)
  func linkAndUnlinkChangeTheLinkTable(server: TestServer) throws {
    let session = try REPLSession(width: 100, defaultLimit: 20)
    _ = try session.run(
      "open \(server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy())")
    _ = try session.run("load \(Self.demoRules)")
    _ = try session.run("login Mike 12345")
    #expect(try session.run("link Film 1 actors 2") == "linked Actor 2 to Film 1 (actors)")
    #expect(try session.run("link film 1 Actors 3").hasPrefix("linked Actor 3"))
    #expect(try session.run("unlink Film 1 actors 10") == "unlinked Actor 10 from Film 1 (actors)")
    #expect(
      try Self.actors(session) == [
        "1", "2", "3", "20", "30", "40", "53", "108", "162", "188", "198",
      ])
    #expect(throws: (any Error).self) { try session.run("link Film 1 actors 2") }
    #expect(throws: (any Error).self) { try session.run("unlink Film 1 actors 10") }
    #expect(throws: (any Error).self) { try session.run("link Film 1 actors 99999") }
    #expect(throws: (any Error).self) { try session.run("link Film 1 inventories 1") }
    #expect(throws: (any Error).self) { try session.run("link Film 1 actors") }
    // The inverse end works as well.
    #expect(try session.run("link Actor 2 films 5") == "linked Film 5 to Actor 2 (films)")
    // A user the rules forbid changes nothing.
    _ = try session.run(
      "rule user.username = 'Mike' AND entity.name = 'FilmActor' => isEntityReadOnly = true ; high")
    let refused = #expect(throws: (any Error).self) { try session.run("link Film 1 actors 4") }
    #expect(String(describing: refused).contains("read-only"))
    #expect(!(try Self.actors(session)).contains("4"))
  }
}
