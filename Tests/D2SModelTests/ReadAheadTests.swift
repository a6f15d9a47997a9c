import EnvKeys
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

  /// The rows `specification` selects, read straight and read ahead (`pause` runs before each
  /// row read ahead is kept).
  func bothWays(
    _ database: Database, _ specification: FetchSpecification, paths: [PropertyPath],
    pause: (_ kept: Int) -> Void = { _ in }
  ) throws -> (direct: [[DatabaseValue]], ahead: [[DatabaseValue]]) {
    var direct: [[DatabaseValue]] = []
    try database.fetchRows(specification, paths: paths) { direct.append($0) }
    var ahead: [[DatabaseValue]] = []
    try database.fetchRows(specification, paths: paths, readAhead: true) { values in
      pause(ahead.count)
      ahead.append(values)
    }
    return (direct, ahead)
  }

  @Test(arguments: TestDatabase.available)
  func theSameRowsInTheSameOrder(kind: TestDatabase) throws {
    let database = try kind.open()
    let (specification, paths) = try rentals(database)
    let (direct, ahead) = try bothWays(database, specification, paths: paths)
    #expect(direct.count == 16_044)
    #expect(direct.count > RowReadAhead.batchSize * (RowReadAhead.depth + 2))
    #expect(ahead == direct)
  }

  /// A slow caller: the reader decodes the batches it would have handed over raw.
  @Test(arguments: TestDatabase.available)
  func aSlowCallerGetsTheSameRows(kind: TestDatabase) throws {
    let database = try kind.open()
    let (specification, paths) = try rentals(database)
    let (direct, ahead) = try bothWays(database, specification, paths: paths) { kept in
      if kept % 500 == 0 { Thread.sleep(forTimeInterval: 0.002) }
    }
    #expect(ahead == direct)
  }

  /// SQLite's rows are read ahead raw and decoded on the caller's thread: every storage class
  /// in every column type decodes as it does straight from the statement.
  @Test func everyStorageClassDecodesAsFromTheStatement() throws {
    let adaptor = try SQLiteAdaptor(path: "sqlite::memory:")
    // STRING, BOOLEAN, DATETIME and DECIMAL have NUMERIC affinity in SQLite, so numbers, text
    // and blobs stay as they were inserted; `loose` has no type at all.
    try adaptor.executeScript(
      """
      CREATE TABLE mixed (id INTEGER PRIMARY KEY, name STRING, amount DECIMAL(10,2), ratio REAL,
        flag BOOLEAN, happened DATETIME, day DATE, at TIME, payload BLOB, count INTEGER, loose);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700)
      INSERT INTO mixed SELECT i,
        CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 'név ' || i WHEN 2 THEN i WHEN 3 THEN i / 8.0
          ELSE x'41424344' END,
        CASE i % 4 WHEN 0 THEN i * 1.25 WHEN 1 THEN i WHEN 2 THEN 'about 12' ELSE x'3132' END,
        CASE i % 3 WHEN 0 THEN i / 3.0 WHEN 1 THEN i ELSE 'half' END,
        CASE i % 6 WHEN 0 THEN 1 WHEN 1 THEN 0 WHEN 2 THEN 'yes' WHEN 3 THEN i / 7.0 WHEN 4 THEN 'maybe'
          ELSE NULL END,
        CASE i % 4 WHEN 0 THEN '2005-05-24 22:53:30' WHEN 1 THEN 1116975210
          WHEN 2 THEN 1116975210.5 ELSE 'not a date' END,
        CASE i % 2 WHEN 0 THEN '2006-02-15' ELSE NULL END,
        '10:15:00',
        CASE i % 4 WHEN 0 THEN x'00ff10' WHEN 1 THEN 'text blob' WHEN 2 THEN i ELSE (i + 0.1) / 3 END,
        CASE i % 3 WHEN 0 THEN i WHEN 1 THEN 2.5 ELSE 'seven' END,
        CASE i % 4 WHEN 0 THEN i WHEN 1 THEN 0.5 WHEN 2 THEN 'loose' ELSE x'01' END
      FROM n;
      """)
    let database = try Database(adaptor: adaptor)
    let specification = FetchSpecification(
      entityName: "Mixed", sortOrderings: [SortOrdering("id")])
    let (direct, ahead) = try bothWays(database, specification, paths: [])
    #expect(direct.count == 700)
    #expect(Set(direct.joined().map(caseName)).count == 8)  // all but arrays
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

/// The case of `value`, without its payload.
private func caseName(_ value: DatabaseValue) -> String {
  switch value {
  case .null: "null"
  case .int: "int"
  case .double: "double"
  case .decimal: "decimal"
  case .string: "string"
  case .bool: "bool"
  case .date: "date"
  case .data: "data"
  case .array: "array"
  case .verbatim: "verbatim"
  case .textBytes: "textBytes"
  case .list: "list"
  }
}
