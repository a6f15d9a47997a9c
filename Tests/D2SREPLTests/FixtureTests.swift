import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Small invented databases (Fixtures/*.sql), one per trait of schemas other than Sakila.
/// Each one's entity list, a list page and an inspect page are snapshots, the same on SQLite
/// and PostgreSQL; the titles and relationship names a person expects are literal strings.
@Suite struct FixtureTests {
  struct Fixture: Sendable, CustomTestStringConvertible {
    let name: String
    /// The `list …` and `inspect …` commands of the snapshot.
    let list: String
    let inspect: String
    /// The title line of `inspect ENTITY KEY`, by `ENTITY KEY`.
    let titles: [String: String]
    /// Relationship names, by entity.
    let relationships: [String: [String]]
    /// Lines the snapshot must hold (what a person reads there).
    let lines: [String]
    var testDescription: String { name }
  }

  static let fixtures: [Fixture] = [
    Fixture(
      name: "pascal-case", list: "list Album", inspect: "inspect Artist 1",
      titles: ["Artist 1": "The Paper Lanterns", "Album 3": "Tide Tables"],
      relationships: ["Artist": ["albums"], "Album": ["artist"]],
      lines: ["Albums  2 (follow albums)"]),
    Fixture(
      name: "plural-tables", list: "list Products", inspect: "inspect Categories 1",
      titles: ["Categories 1": "Teas", "Products 2": "Smoky Oolong"],
      relationships: ["Categories": ["products"], "Products": ["category"]],
      lines: [
        "Products       2 (follow products)",
        "Morning Mist  20 bags            Teas             4.50",
      ]),
    Fixture(
      name: "names-with-spaces", list: "list OrderDetails", inspect: "inspect Orders 1",
      titles: ["Orders 1": "Harbour Stores", "Products 2": "Pear Cider"],
      relationships: [
        "OrderDetails": ["order", "product"], "Orders": ["orderDetails"],
        "Products": ["orderDetails"],
      ],
      lines: [
        "  OrderDetails", "Order Details  2 (follow orderDetails)",
        "Harbour Stores  Pear Cider          3.40         6",
      ]),
    Fixture(
      name: "text-keys", list: "list Flights", inspect: "inspect Airports NVL",
      titles: ["Airports NVL": "Northvale Regional", "Flights 1": "NV101"],
      relationships: [
        "Flights": ["origin", "destination"], "Airports": ["flights", "flightsAsDestination"],
      ],
      lines: [
        "Flights                 2 (follow flights)",
        "Flights As Destination  1 (follow flightsAsDestination)",
      ]),
    Fixture(
      name: "self-reference", list: "list employees", inspect: "inspect employees 2",
      titles: ["Employees 1": "Iris Calder", "Employees 4": "Jonah Pike"],
      relationships: ["Employees": ["manager", "employees"]],
      lines: ["Manager    Iris Calder", "Employees  1 (follow employees)"]),
    Fixture(
      name: "job-title", list: "list Employee", inspect: "inspect Employee 2",
      titles: ["Employee 1": "Edith Marlow", "Employee 3": "Nora Vale"],
      relationships: ["Employee": ["reportsTo", "employees"]],
      lines: ["Reports To  Edith Marlow", "Title       Sales Manager"]),
    Fixture(
      name: "company-contact", list: "list Shipments", inspect: "inspect Suppliers 1",
      titles: ["Suppliers 1": "Fjord Provisions", "Suppliers 2": "Savanna Spice Traders"],
      relationships: ["Suppliers": ["shipments"], "Shipments": ["supplier"]],
      lines: ["Fjord Provisions", "Contact Name   Mara Lindqvist"]),
    Fixture(
      name: "link-table", list: "list Enrollments", inspect: "inspect Students 1",
      titles: ["Students 1": "Ana Moreau", "Courses 1": "Databases"],
      relationships: [
        "Students": ["enrollments", "courses"], "Courses": ["enrollments", "students"],
        "Enrollments": ["student", "course"],
      ],
      lines: ["Courses     2 (follow courses)", "Ana Moreau    Databases   2023-09-01 08:00:00"]),
  ]

  /// A session on a new database made from the fixture, and the database's name there.
  func session(_ fixture: Fixture, on server: TestServer) throws -> (REPLSession, String) {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Fixtures")
    let sql = try String(
      contentsOf: folder.appendingPathComponent(fixture.name + ".sql"), encoding: .utf8)
    let name = fixture.name.replacingOccurrences(of: "-", with: "_")
    let target =
      switch server {
      case .sqlite: try TestDatabases.sqliteFile(sql, named: name)
      case .postgresql: try PostgresSakila.database(from: sql, prefix: name)
      }
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(target)")
    return (session, try session.database.name)
  }

  @Test(arguments: fixtures, TestServer.available)
  func pagesReadAsAPersonExpects(fixture: Fixture, server: TestServer) throws {
    let (session, name) = try session(fixture, on: server)
    var text = ""
    for command in ["entities", fixture.list, fixture.inspect] {
      text += "> \(command)\n" + (try session.run(command)) + "\n"
    }
    // The entity list's title is the database's name, which differs on the test server.
    let title = fixture.name.replacingOccurrences(of: "-", with: "_")
    text = text.replacingOccurrences(
      of: name + "\n" + String(repeating: "=", count: name.count) + "\n",
      with: title + "\n" + String(repeating: "=", count: title.count) + "\n")
    TranscriptTests().check(text, "fixture-" + fixture.name)
    for line in fixture.lines {
      #expect(text.contains("\n" + line + "\n"), "\(fixture.name) shows \(line)")
    }
    for (object, title) in fixture.titles {
      #expect(
        try session.run("inspect \(object)").split(separator: "\n").first == Substring(title),
        "\(object)")
    }
    let model = try session.database.model
    for (entity, names) in fixture.relationships {
      #expect(model.entity(named: entity)?.relationships.map(\.name) == names, "\(entity)")
    }
  }

  @Test(arguments: TestServer.available)
  func manyToManyThroughALinkTable(server: TestServer) throws {
    let fixture = try #require(Self.fixtures.first { $0.name == "link-table" })
    let (session, _) = try session(fixture, on: server)
    _ = try session.run("inspect Students 1")
    let courses = try session.run("follow courses")
    #expect(
      courses.contains("Databases") && courses.contains("Typography")
        && !courses.contains("Astronomy"))
    #expect(courses.withoutKeyHint.hasSuffix("2 Courses"))
    #expect(
      try session.run("show auxiliaryQualifier")
        == #"auxiliaryQualifier = "students.id = 1"  # set"#)
    let taking = try session.run("list Students where courses.title = 'Databases'")
    #expect(taking.contains("Ana") && taking.contains("Bilal") && !taking.contains("Chen"))
    let notTaking = try session.run("list Students where NOT courses.title = 'Databases'")
    #expect(notTaking.contains("Chen") && !notTaking.contains("Ana"))
    _ = try session.run("inspect Students 1")
    #expect(
      try session.run("follow enrollments").withoutKeyHint.hasSuffix("2 Enrollments"),
      "the link's own to-many is still followed by name")
  }
}
