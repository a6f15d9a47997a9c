import D2STesting
import Synchronization
import Testing

@testable import D2SModel

/// A value worked out when first read: once, whichever threads ask at the same time.
@Suite struct ComputedOnceTests {
  final class Calls: Sendable {
    let count = Mutex(0)
  }

  @Test func manyReadersAtOnceComputeItOnce() async {
    let calls = Calls()
    let once = ComputedOnce { () -> [Int] in
      calls.count.withLock { $0 += 1 }
      return Array(0..<100)
    }
    let sums = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<32 { group.addTask { once.value.reduce(0, +) } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(sums == Array(repeating: 4950, count: 32))
    #expect(calls.count.withLock { $0 } == 1)
    #expect(once.value.count == 100)
    #expect(calls.count.withLock { $0 } == 1)
  }

  @Test func anEntitysTitlesAreTheSameAskedFromManyTasks() async throws {
    let model = try SakilaSQLite.open().model
    let expected = try #require(model.entity(named: "Customer")).titleAttributeChoices
    #expect(expected.first == ["firstName", "lastName"])
    let fresh = try SakilaSQLite.open().model
    let customer = try #require(fresh.entity(named: "Customer"))
    let seen = await withTaskGroup(of: [[String]].self) { group in
      for _ in 0..<16 { group.addTask { customer.titleAttributeChoices } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(seen.allSatisfy { $0 == expected })
    #expect(customer.titleAttributeIndexes.first?.count == 2)
  }

  @Test func aModelsEntitiesGetTheirAttributesWhenOneIsFirstAskedFor() async throws {
    let model = try SakilaSQLite.open().model
    #expect(model.entities.count > 15)
    #expect(model.entities.allSatisfy { !$0.hasDetails })
    #expect(model.entity(named: "Film")?.isView == false)
    #expect(model.entities.allSatisfy { !$0.hasDetails }, "names and kinds need no columns")

    let eager = try SakilaSQLite.open().model
    let sequential = eager.entities.map {
      ($0.name, $0.attributes.map(\.name), $0.relationships.map(\.name))
    }
    let concurrent = await withTaskGroup(of: (Int, [String], [String]).self) { group in
      for (index, entity) in model.entities.enumerated() {
        group.addTask { (index, entity.attributes.map(\.name), entity.relationships.map(\.name)) }
      }
      return await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
    }
    for (index, expected) in sequential.enumerated() {
      #expect(concurrent[index]?.0 == expected.1, "\(expected.0)")
      #expect(concurrent[index]?.1 == expected.2, "\(expected.0)")
    }
    #expect(model.entities.allSatisfy { $0.hasDetails })
    #expect(model.entity(named: "Film")?.primaryKeyAttributeNames == ["id"])
    #expect(model.entity(named: "FilmActor")?.isReadOnly == false)
  }
}
