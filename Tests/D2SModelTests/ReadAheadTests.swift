import Foundation
import Synchronization
import Testing

@testable import D2SModel
@testable import PostgreSQLAdaptor
@testable import SQLiteAdaptor

/// Rows read ahead on a second thread reach the caller whole and in order; an error on
/// either side stops both, is thrown, and leaves the connection usable.
@Suite struct ReadAheadTests {
  /// Every rental, with a joined path, in key order: more rows than the read-ahead holds.
  func rentals(_ database: Database) throws -> (FetchSpecification, [PropertyPath]) {
    let entity = try database.entity("Rental")
    let path = try PropertyPath("customer.lastName", from: entity, in: database.model)
    return (
      FetchSpecification(entityName: "Rental", sortOrderings: [SortOrdering("id")]), [path]
    )
  }

  @Test(arguments: TestDatabase.available)
  func theSameRowsInTheSameOrder(kind: TestDatabase) throws {
    let database = try kind.open()
    let (specification, paths) = try rentals(database)
    var direct: [[DatabaseValue]] = []
    try database.fetchRows(specification, paths: paths) { direct.append($0) }
    var ahead: [[DatabaseValue]] = []
    try database.fetchRows(specification, paths: paths, readAhead: true) { ahead.append($0) }
    #expect(direct.count == 16_044)
    #expect(direct.count > RowReadAhead.batchSize * (RowReadAhead.depth + 2))
    #expect(ahead == direct)
  }

  @Test(arguments: TestDatabase.available)
  func aFailingRowStopsTheReaderAndIsThrown(kind: TestDatabase) throws {
    let database = try kind.open()
    let (specification, paths) = try rentals(database)
    var handled = 0
    #expect(throws: StopHere.self) {
      try database.fetchRows(specification, paths: paths, readAhead: true) { _ in
        handled += 1
        if handled == 1_000 { throw StopHere() }
      }
    }
    #expect(handled == 1_000)
    // The reader has let the connection go.
    #expect(try database.count(FetchSpecification(entityName: "Language")) == 6)
  }

  /// Ctrl-C while rows are read ahead: the reader's statement stops, and its error reaches
  /// the caller after the rows read before it.
  @Test(arguments: TestDatabase.available)
  func anInterruptedReaderEndsTheRows(kind: TestDatabase) throws {
    let database = try kind.open()
    let (specification, paths) = try rentals(database)
    let stop = Atomic<Bool>(false)
    let connection: any InterruptibleConnection
    switch database.adaptor {
    case let adaptor as SQLiteAdaptor: connection = adaptor.connection
    case let adaptor as PostgreSQLAdaptor: connection = adaptor.connection
    default: throw DatabaseError(.other, "unexpected adaptor")
    }
    let saved = connection.isInterrupted
    connection.isInterrupted = { stop.load(ordering: .relaxed) }
    defer { connection.isInterrupted = saved }
    var handled = 0
    #expect {
      try database.fetchRows(specification, paths: paths, readAhead: true) { _ in
        handled += 1
        if handled == 100 { stop.store(true, ordering: .relaxed) }
      }
    } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    #expect(handled >= 100 && handled < 16_044)
    stop.store(false, ordering: .relaxed)
    #expect(try database.count(FetchSpecification(entityName: "Language")) == 6)
  }
}

private struct StopHere: Error {}
