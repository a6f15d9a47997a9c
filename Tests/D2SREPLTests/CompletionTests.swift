import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Completion by position over Sakila: one case per place a word can stand.
@Suite struct PositionCompletionTests {
  func session() throws -> REPLSession {
    let session = try REPLSession()
    _ = try session.run("open \(try SakilaSQLite.copy())")
    return session
  }

  func complete(_ line: String, in session: REPLSession) -> [String] {
    let prefix = line.hasSuffix(" ") ? "" : String(line.split(separator: " ").last ?? "")
    return Completion.candidates(
      for: prefix, after: String(line.dropLast(prefix.count)), in: session)
  }

  @Test func commandsAtTheStartAndEntitiesAfterThem() throws {
    let session = try session()
    #expect(complete("li", in: session) == ["link", "lint", "list"])
    #expect(complete("list Lang", in: session) == ["Language"])
    #expect(
      complete("inspect Fil", in: session) == [
        "Film", "FilmActor", "FilmCategory", "FilmList", "FilmText",
      ])
    #expect(complete("count Ren", in: session) == ["Rental"])
  }

  @Test func keyPathsAfterWhereAndOrderBy() throws {
    let session = try session()
    #expect(complete("list Film where ra", in: session) == ["rating"])
    #expect(complete("list Film where language.na", in: session) == ["language.name"])
    #expect(complete("list Film order by le", in: session) == ["length"])
    #expect(complete("list Film with replacement", in: session) == ["replacementCost"])
    #expect(complete("list Film where title ", in: session).contains("like"))
    #expect(complete("list Film where title l", in: session) == ["like"])
    #expect(complete("list Film ", in: session).contains("where"))
    #expect(complete("list Flim where ti", in: session).isEmpty, "no such entity: nothing")
  }

  @Test func relationshipsAfterFollowAndAttributesWhileEditing() throws {
    let session = try session()
    _ = try session.run("inspect Film 1")
    #expect(complete("follow ac", in: session) == ["actors"])
    _ = try session.run("login Mike 12345")
    _ = try session.run("edit Film 1")
    #expect(complete("object.rep", in: session) == ["object.replacementCost"])
    #expect(complete("choose ", in: session) == ["language", "originalLanguage"])
  }

  @Test func keysAfterShowAndNamesInBackticks() throws {
    let session = try session()
    #expect(complete("show displayNameForEnt", in: session) == ["displayNameForEntity"])
    #expect(complete("unset plat", in: session) == ["platform"])
    let awkward = try FixtureSession.open("awkward-names", on: .sqlite)
    let names = complete("list OddNames order by or", in: awkward)
    #expect(names == ["`order`"], "\(names)")
  }
}
