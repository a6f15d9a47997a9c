import D2SModel
import D2STesting
import SQLiteAdaptor
import Testing

/// The one walk of a key path: to-ones followed, a to-many a stop unless allowed, flattened
/// many-to-manys expanded through their link table when asked, names matched by the caller.
@Suite struct KeyPathWalkTests {
  let model: Model
  let film: Entity

  init() throws {
    model = try Database(adaptor: SQLiteAdaptor(path: try SakilaSQLite.copy())).model
    film = try #require(model.entity(named: "Film"))
  }

  @Test func toOnesAreFollowedUpToAnAttribute() {
    let walk = KeyPathWalk(["language", "name"], from: film, in: model)
    #expect(walk.steps.map(\.name) == ["language"])
    #expect(walk.owner.name == "Language")
    #expect(Array(walk.rest) == ["name"])
    guard case .notARelationship = walk.stop else {
      Issue.record("stopped at \(walk.stop)")
      return
    }
  }

  @Test func aToManyStopsTheWalkUnlessAllowed() {
    let stopped = KeyPathWalk(["filmActors", "actor"], from: film, in: model)
    #expect(stopped.steps.isEmpty)
    guard case .toMany(let step) = stopped.stop else {
      Issue.record("stopped at \(stopped.stop)")
      return
    }
    #expect(step.source.name == "Film" && step.destination.name == "FilmActor")
    let through = KeyPathWalk(["filmActors", "actor"], from: film, in: model, toMany: true)
    #expect(through.steps.map(\.destination.name) == ["FilmActor", "Actor"])
    #expect(through.rest.isEmpty)
  }

  @Test func aFlattenedManyToManyIsWalkedThroughItsLinkTable() {
    let plain = KeyPathWalk(["actors"], from: film, in: model, toMany: true)
    #expect(plain.steps.map(\.name) == ["actors"])
    let expanded = KeyPathWalk(
      ["actors", "lastName"], from: film, in: model, expandingFlattened: true)
    guard case .toMany(let step) = expanded.stop else {
      Issue.record("stopped at \(expanded.stop)")
      return
    }
    #expect(step.name == "filmActors")
    #expect(Array(expanded.rest) == ["filmActors", "actor", "lastName"])
  }

  @Test func namesAreMatchedByTheCaller() throws {
    struct NoSuchName: Error {}
    let walk = try KeyPathWalk(["LANGUAGE", "NAME"], from: film, in: model, toMany: true) {
      typed, entity in
      let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
      guard let name = names.first(where: { $0.lowercased() == typed.lowercased() }) else {
        throw NoSuchName()
      }
      return name
    }
    #expect(walk.steps.map(\.name) == ["language"])
    #expect(throws: NoSuchName.self) {
      try KeyPathWalk(["nope"], from: film, in: model) { _, _ in throw NoSuchName() }
    }
  }
}
