import D2STesting
import Foundation
import Testing

/// Script mode has no width limit unless --width or COLUMNS gives one; titles, numbers and
/// dates are never cut, and columns that cannot fit are named below the table.
@Suite struct WidthTests {
  let command = "list Film where length > 180 order by length desc, title limit 3"

  func run(_ arguments: [String], columns: String?) throws -> BinaryTests.Run {
    var environment: [String: String] = [:]
    environment["COLUMNS"] = columns ?? ""
    return try BinaryTests().run(arguments, environment: environment)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func scriptsShowWholeValues() throws {
    let database = try SakilaSQLite.copy()
    let unlimited = try run([database, "-c", command], columns: nil)
    #expect(unlimited.status == 0)
    for title in ["CHICAGO NORTH", "CONTROL ANTHEM", "DARN FORRESTER"] {
      #expect(unlimited.stdout.contains(title))
    }
    #expect(
      unlimited.stdout.contains(
        "A Fateful Yarn of a Mad Cow And a Waitress who must Battle a Student in California"))
    #expect(!unlimited.stdout.contains("…"))
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func narrowTerminalsKeepTitlesWhole() throws {
    let database = try SakilaSQLite.copy()
    for narrow in [
      try run([database, "-c", command], columns: "80"),
      try run([database, "--width", "80", "-c", command], columns: nil),
    ] {
      #expect(narrow.status == 0)
      for title in ["CHICAGO NORTH", "CONTROL ANTHEM", "DARN FORRESTER"] {
        #expect(narrow.stdout.contains(title))
      }
      #expect(narrow.stdout.contains("need a wider terminal"))
      #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
    #expect(try run([database, "--width", "0", "-c", "entities"], columns: nil).status == 2)
  }
}

/// The benchmarked list keeps rule semantics: an object-dependent rule applies per cell, and
/// the JSON form of a page is valid JSON with the values a person asked for.
@Suite struct BenchmarkedListTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func anObjectDependentRuleStillAppliesPerCell() throws {
    let database = try SakilaSQLite.copy()
    let run = try BinaryTests().run([
      database, "-c",
      "rule task = 'list' AND entity.name = 'Rental' => displayPropertyKeys = ('rentalDate', 'customer.lastName', 'inventory.film.title')",
      "-c",
      "rule propertyKey = 'customer.lastName' AND object.customer.lastName = 'HUNTER' => component = 'DisplayPassword'",
      "-c", "list Rental order by id limit 3",
    ])
    #expect(run.status == 0)
    let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("2005-05-24") }
    #expect(rows.count == 3)
    #expect(
      rows[0].contains("••••••••") && rows[0].contains("BLANKET BEVERLY"),
      "HUNTER's cell uses the object's component")
    #expect(rows[1].contains("COLLAZO"), "other rows keep the column's component")
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func jsonOutputParses() throws {
    let run = try BinaryTests().run([
      try SakilaSQLite.copy(), "--format", "json", "-c",
      "list Film where rating = 'G' order by title limit 2",
    ])
    #expect(run.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(
      run.stdout.contains("\"ACE GOLDFINGER\"") && run.stdout.contains("\"AFFAIR PREJUDICE\""))
    #expect((object["total"] as? [String: Any])?["value"] as? Int == 178)
  }
}
