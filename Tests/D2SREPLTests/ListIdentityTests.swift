import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Lists show what identifies a row: natural keys, to-ones by their titles, and a footer
/// saying how to see a hidden key, so that every row leads to its inspect page (fixtures
/// `natural-keys`, `link-table` and `self-reference`, on SQLite and PostgreSQL).
@Suite struct ListIdentityTests {
  @Test(arguments: TestServer.available)
  func toOnesShowTheirTitlesWhereTheirForeignKeysAre(server: TestServer) throws {
    let session = try FixtureSession.open("natural-keys", on: server)
    #expect(
      try session.run("list OrderItem order by id") == """
        OrderItem
        =========
        Product  Invoice         Qty
        -------  --------------  ---
        Lantern  Harbour Stores    3
        Compass  Harbour Stores    1
        2 OrderItem · "with id" shows the key for inspect OrderItem ID
        """)
    // A natural key is shown, so the footer has nothing to add.
    #expect(
      try session.run("list Tag") == """
        Tag
        ===
        Tag
        -------
        outdoor
        sale
        2 Tag
        """)
  }

  @Test(arguments: TestServer.available)
  func withShowsTheKeyAndEveryRowLeadsToItsInspectPage(server: TestServer) throws {
    let session = try FixtureSession.open("natural-keys", on: server)
    #expect(
      try session.run("list OrderItem with id, product.name where qty < 3") == """
        OrderItem
        =========
        Id  Product Name  Product  Invoice         Qty
        --  ------------  -------  --------------  ---
         2  Compass       Compass  Harbour Stores    1
        1 OrderItem
        """)
    #expect(try session.run("inspect OrderItem 2").hasPrefix("OrderItem: 2\n"))
    // `next` keeps the clause's columns.
    _ = try session.run("list OrderItem with id order by id limit 1")
    #expect(try session.run("next").contains(" 2  Compass"))

    let links = try FixtureSession.open("link-table", on: server, width: 200)
    let enrollments = try links.run("list Enrollments limit 1")
    #expect(
      enrollments.hasSuffix(
        #"1–1 of 4 Enrollments · "with studentId, courseId" shows the key for inspect Enrollments STUDENTID,COURSEID"#
      ))
    let keyed = try links.run(
      "list Enrollments with studentId, courseId order by courseId desc limit 1")
    #expect(keyed.contains("Student Id  Course Id  Student"), "\(keyed)")
    #expect(try links.run("inspect Enrollments 1,2").contains("Typography"))
  }

  @Test func withClausesAreCheckedBeforeAnythingRuns() throws {
    let session = try FixtureSession.open("natural-keys", on: .sqlite)
    for (command, message) in [
      ("list OrderItem with idd", "OrderItem has no property 'idd' (did you mean id?)"),
      ("list OrderItem with id with qty", "only one with clause"),
      ("list OrderItem with", "'with' needs something after it"),
      ("list OrderItem with 'x'", "usage: with KEY, …"),
      ("list OrderItem with id desc", "usage: with KEY, …"),
    ] {
      #expect {
        try session.run(command)
      } throws: { error in
        "\(error)" == message
      }
    }
  }

  @Test(arguments: TestServer.available)
  func aMissingToOneShowsTheNilText(server: TestServer) throws {
    let session = try FixtureSession.open("self-reference", on: server)
    let list = try session.run("list employees order by fullName")
    #expect(list.contains("Iris Calder   iris@example.org   -\n"), "\(list)")
    #expect(list.contains("Jonah Pike    jonah@example.org  Tomas Brandt\n"), "\(list)")
  }

  @Test(arguments: TestServer.available)
  func titlesAreFetchedAChunkOfRowsAtATimeNeverPerRow(server: TestServer) throws {
    let database = server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy()
    let session = try FixtureSession.open(database: database)
    let before = try session.database.adaptor.statementCount
    let rentals = try session.run("list Rental order by id limit 2000")
    let statements = try session.database.adaptor.statementCount - before
    #expect(rentals.contains("1–2000 of 16044 Rental"))
    #expect(rentals.contains("CHARLOTTE HUNTER") && rentals.contains("Mike Hillyer"))
    // The rows, a count, and per chunk of 500 rows one statement per to-one column
    // (inventory, customer, staff) at most: 2 + 4 × 3.
    #expect(statements <= 14, "\(statements) statements for 2,000 rows")
  }

  /// A whole list (script mode, no limit) with to-one titles, the binary run as users run
  /// it: small destinations are loaded first and rows read ahead (`City`, 109 countries);
  /// large ones a chunk at a time, without read-ahead (`Rental`, 4,581 inventory items). A
  /// query while rows are read ahead would wait for the reader forever: the run's timeout
  /// fails the test.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"),
    arguments: TestServer.available)
  func wholeListsWithTitlesRunToTheEnd(server: TestServer) throws {
    let database = server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy()
    for (command, footer, row) in [
      ("list City", "600 City", "Abha                        Saudi Arabia"),
      ("list Rental", "16044 Rental", "2005-05-24 22:53:30  Inventory: 367"),
    ] {
      let run = try BinaryTests().run([database, "-c", command])
      #expect(run.status == 0, "\(command): \(run.stderr)")
      let lines = run.stdout.split(separator: "\n")
      #expect(lines.last?.hasPrefix(footer + " · ") == true, "\(command): \(lines.suffix(1))")
      #expect(lines.contains { $0.hasPrefix(row) }, "\(command)")
    }
  }
}
