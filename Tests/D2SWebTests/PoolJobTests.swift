import D2SModel
import D2STesting
import D2SWeb
import Foundation
import SQLiteAdaptor
import Synchronization
import Testing

/// The pool runs waiting requests' work on the connection given back, one after the other:
/// every request is answered, never more at once than the pool's size, and a connection that
/// fails, or cannot be opened, leaves its place to the next request.
@Suite struct PoolJobTests {
  /// A count shared between tasks.
  final class Counter: Sendable {
    let value = Atomic(0)
    func load() -> Int { value.load(ordering: .relaxed) }
  }

  /// A pool of `size` connections to a copy of Sakila, counting the connections opened and
  /// failing the openings `failing` names (1 is the first).
  static func pool(size: Int, failing: Set<Int> = []) throws -> (DatabasePool, Counter) {
    let path = try SakilaSQLite.copy()
    let model = try Database(adaptor: try SQLiteAdaptor(path: path)).model
    let opened = Counter()
    let pool = DatabasePool(
      size: size, statementTimeout: .seconds(30), model: model, sharePerClient: size
    ) {
      let number = opened.value.add(1, ordering: .relaxed).newValue
      if failing.contains(number) {
        throw DatabaseError(.connection, "opening \(number) refused")
      }
      return try SQLiteAdaptor(path: path)
    }
    return (pool, opened)
  }

  @Test(.timeLimit(.minutes(1)))
  func manyRequestsAreAllAnsweredNeverMoreAtOnceThanTheSize() async throws {
    let (pool, opened) = try Self.pool(size: 3)
    let running = Counter()
    let most = Counter()
    let answers = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<200 {
        group.addTask {
          try await pool.withDatabase(client: "c\(index % 4)") { database in
            let now = running.value.add(1, ordering: .relaxed).newValue
            _ = most.value.max(now, ordering: .relaxed)
            defer { running.value.subtract(1, ordering: .relaxed) }
            return try database.count(FetchSpecification(entityName: "Language")) + index
          }
        }
      }
      var answers: [Int] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
    #expect(answers.sorted() == (0..<200).map { $0 + 6 })
    #expect(most.load() <= 3)
    #expect(opened.load() <= 3)
  }

  @Test(.timeLimit(.minutes(1)))
  func aConnectionThatCannotBeOpenedAnswersItsRequestAndTheNextOpensOne() async throws {
    let (pool, opened) = try Self.pool(size: 1, failing: [1])
    await #expect(throws: DatabaseError.self) {
      try await pool.withDatabase { database in
        try database.count(FetchSpecification(entityName: "Language"))
      }
    }
    let count = try await pool.withDatabase { database in
      try database.count(FetchSpecification(entityName: "Category"))
    }
    #expect(count == 16)
    #expect(opened.load() == 2)
  }

  @Test(.timeLimit(.minutes(1)))
  func aConnectionThatFailsIsClosedAndTheWaitingRequestsGetANewOne() async throws {
    let (pool, opened) = try Self.pool(size: 1)
    let answers = try await withThrowingTaskGroup(of: Int?.self) { group in
      for index in 0..<20 {
        group.addTask {
          do {
            return try await pool.withDatabase { database -> Int in
              // The fifth request's connection fails: the others are still answered.
              if index == 4 { throw DatabaseError(.connection, "the connection was lost") }
              return try database.count(FetchSpecification(entityName: "Language"))
            }
          } catch let error as DatabaseError where error.code == .connection {
            return nil
          }
        }
      }
      var answers: [Int?] = []
      for try await answer in group { answers.append(answer) }
      return answers
    }
    #expect(answers.filter { $0 == nil }.count == 1)
    #expect(answers.compactMap { $0 }.allSatisfy { $0 == 6 })
    #expect(answers.compactMap { $0 }.count == 19)
    // The failed connection was replaced once it failed, not before (and not at all when no
    // request was left waiting).
    #expect(opened.load() <= 2)
  }

  @Test(.timeLimit(.minutes(1)))
  func aRequestsNextCallFindsTheConnectionItGaveBack() async throws {
    let (pool, opened) = try Self.pool(size: 3)
    // The connection is given back before its request is answered: the request's next call
    // takes it, never opening another.
    for _ in 0..<200 {
      _ = try await pool.withDatabase { database in
        try database.count(FetchSpecification(entityName: "Language"))
      }
    }
    #expect(opened.load() == 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func aPoolThatClosedItsIdleConnectionsStillServesARequest() async throws {
    let (pool, opened) = try Self.pool(size: 1)
    let count = { @Sendable (database: Database) in
      try database.count(FetchSpecification(entityName: "Language"))
    }
    #expect(try await pool.withDatabase(count) == 6)
    pool.closeIdle()
    // Bounded: a request that waits for a connection nobody gives back fails after 10 s
    // (left waiting; the test does not wait for it).
    let answered = Counter()
    Task {
      if try await pool.withDatabase(count) == 6 { answered.value.store(1, ordering: .relaxed) }
    }
    for _ in 0..<1_000 where answered.load() == 0 { try await Task.sleep(for: .milliseconds(10)) }
    #expect(answered.load() == 1, "the request after closeIdle was answered")
    #expect(opened.load() == 2)
  }
}
