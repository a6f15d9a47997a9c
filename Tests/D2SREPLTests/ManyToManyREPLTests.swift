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
    #expect(actors.hasPrefix("Actor\n=====\n"))
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
