import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Values shown and saved exactly as stored, on fixtures of our own holding what SQLite and
/// PostgreSQL allow (`Fixtures/stored-values-*.sql`): the text shown is the literal text
/// expected, and after an edit the stored bytes (`quote(col)`, `col::text`) are read back.
@Suite struct StoredValueTests {
  /// A session on a new database made from the fixture for `server`.
  func session(on server: TestServer) throws -> REPLSession {
    try FixtureSession.open("stored-values-\(server.rawValue)", on: server, width: 120)
  }

  /// A new database made from the fixture for `server`: a file path or a URL.
  static func database(on server: TestServer) throws -> String {
    try FixtureSession.database("stored-values-\(server.rawValue)", on: server)
  }

  /// The value of `expression` in one row, as the database's own text (one column query).
  static func stored(_ database: Database, _ expression: String, id: String) throws -> String? {
    var text: String?
    try database.adaptor.query(
      SQLStatement(raw: "SELECT \(expression) FROM measure WHERE id = \(id)"), columns: [nil]
    ) { row in
      text = row[0].isNull ? nil : row[0].storedText()
    }
    return text
  }

  /// Every column of a row as its stored text, by column.
  static func row(_ database: Database, id: String, server: TestServer) throws -> [String: String?]
  {
    let entity = try #require(database.model.entity(named: "Measure"))
    var row: [String: String?] = [:]
    for attribute in entity.attributes {
      let column = "\"\(attribute.columnName)\""
      row[attribute.columnName] = try stored(
        database, server == .sqlite ? "quote(\(column))" : "\(column)::text", id: id)
    }
    return row
  }

  /// The lines of `text` with trailing blanks trimmed.
  func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop(while: { $0 == " " }).reversed())
    }
  }

  // MARK: - SQLite

  @Test func sqliteValuesAreShownAsStored() throws {
    let session = try session(on: .sqlite)
    let first = lines(try session.run("inspect Measure 1"))
    for line in [
      "Reading   -Inf", "Amount    0", "Price     1.50", "Anything  <3 bytes: 00ff41>",
      "Untyped   <2 bytes: 0001>", "Day       2024-03-05 10:11:12",
      "Stamp     2024-03-05T10:11:12.345Z", #"Note      line1\nline2\ttab\e[31mred\x07"#,
    ] {
      #expect(first.contains(line), "\(line)")
    }
    let second = lines(try session.run("inspect Measure 2"))
    for line in [
      "Reading   '0 102'", "Amount    '12abc'", "Price     '7 days'", "Anything  plain",
      "Untyped   5", "Day       19787", "Stamp     1709633472",
      #"Note      bidi \u{202E}abc\x7F\x85"#,
    ] {
      #expect(second.contains(line), "\(line)")
    }
    let fourth = lines(try session.run("inspect Measure 4"))
    #expect(fourth.contains("Reading   Inf") && fourth.contains("Stamp     2024-03-05"))
    let list = try session.run("list Measure")
    let rows = list.split(separator: "\n")
    let row = try #require(rows.firstIndex { $0.hasPrefix("neg inf") })
    #expect(rows[row + 1].hasPrefix("text in numbers"), "a row stays on one line: \(list)")
  }

  @Test func sqliteDatesAreWrittenBackInTheFormTheRowUses() throws {
    let session = try session(on: .sqlite)
    let database = try session.database
    let before = try Self.row(database, id: "1", server: .sqlite)
    _ = try session.run("edit Measure 1")
    _ = try session.run("object.stamp = '2025-01-02 03:04:05'")
    #expect(try session.run("save") == "saved Measure 1")
    var after = try Self.row(database, id: "1", server: .sqlite)
    #expect(after["stamp"] == "'2025-01-02T03:04:05.000Z'", "ISO with T and Z, as stored")
    after["stamp"] = before["stamp"]
    #expect(after == before, "untouched columns keep their bytes")

    _ = try session.run("edit Measure 2")
    _ = try session.run("object.stamp = '2025-01-02 03:04:05'")
    _ = try session.run("object.label = 'epochs'")
    #expect(try session.run("save") == "saved Measure 2")
    #expect(try Self.stored(database, "quote(stamp)", id: "2") == "1735787045", "epoch seconds")
    #expect(try Self.stored(database, "quote(amount)", id: "2") == "'12abc'")
    #expect(try Self.stored(database, "quote(reading)", id: "2") == "'0 102'")

    _ = try session.run("edit Measure 4")
    _ = try session.run("object.stamp = '2025-01-02'")
    #expect(try session.run("save") == "saved Measure 4")
    #expect(try Self.stored(database, "quote(stamp)", id: "4") == "'2025-01-02'", "a day only")
    #expect(try Self.stored(database, "quote(reading)", id: "4") == "Inf")

    _ = try session.run("edit Measure 3")
    _ = try session.run("object.day = '2025-06-07'")
    #expect(try session.run("save") == "saved Measure 3")
    #expect(try Self.stored(database, "quote(day)", id: "3") == "'2025-06-07'")
    #expect(try Self.stored(database, "quote(price)", id: "3") == "253.6")
  }

  @Test func datesAtTheEdgesRoundTrip() throws {
    let session = try session(on: .sqlite)
    let database = try session.database
    let edges = lines(try session.run("inspect Measure 5"))
    #expect(edges.contains("Stamp     9999-12-31 23:59:59.999999"), "never the next year")
    #expect(edges.contains("Price     9007199254740993.00"))
    // A fraction typed is rounded, never cut (.123 stays .123 in a row stored with .345Z).
    _ = try session.run("edit Measure 1")
    _ = try session.run("object.stamp = '2024-01-01 10:00:00.123'")
    #expect(try session.run("save") == "saved Measure 1")
    #expect(try Self.stored(database, "quote(stamp)", id: "1") == "'2024-01-01T10:00:00.123Z'")
    // A time of day is never dropped to keep a row's day-only form.
    _ = try session.run("edit Measure 4")
    _ = try session.run("object.stamp = '2025-01-02 15:30:00'")
    #expect(try session.run("save") == "saved Measure 4")
    #expect(try Self.stored(database, "quote(stamp)", id: "4") == "'2025-01-02 15:30:00'")
    // Every comparable column is compared on delete: the big integer binds exactly.
    #expect(try session.run("delete Measure 5").hasPrefix("deleted"))
    #expect(try Self.stored(database, "count(*)", id: "5") == "0")
  }

  @Test func aRealConcurrentChangeIsStillAConflict() throws {
    let path = try Self.database(on: .sqlite)
    let mine = try FixtureSession.open(database: path, width: 120)
    let theirs = try FixtureSession.open(database: path, width: 120)
    _ = try mine.run("edit Measure 1")
    _ = try theirs.run("edit Measure 1")
    _ = try theirs.run("object.stamp = '2030-01-01 00:00:00'")
    #expect(try theirs.run("save") == "saved Measure 1")
    _ = try mine.run("object.stamp = '2031-01-01 00:00:00'")
    #expect(throws: (any Error).self) { try mine.run("save") }
    #expect(
      try Self.stored(mine.database, "quote(stamp)", id: "1") == "'2030-01-01T00:00:00.000Z'")
  }

  @Test func nothingChangedIsNothingSaved() throws {
    let session = try session(on: .sqlite)
    _ = try session.run("edit Measure 3")
    #expect(try session.run("save") == "nothing to save")
    _ = try session.run("object.label = 'canonical'")
    #expect(try session.run("save") == "nothing to save", "the same value is no change")
  }

  @Test func aRowWhoseKeyIsNullHasNoToManyRows() throws {
    let session = try session(on: .sqlite)
    let database = try session.database
    let tags = try database.fetch(FetchSpecification(entityName: "Tag"))
    let key = try #require(tags.first?.entity.primaryKeyAttributeNames.first)
    let unnamed = try #require(tags.first { $0.databaseValue(forAttribute: key)?.isNull == true })
    #expect(try unnamed.relatedObjects("taggings").isEmpty, "never WHERE tag_name IS NULL")
    let red = try #require(tags.first { $0.databaseValue(forAttribute: key) == .string("red") })
    #expect(try red.relatedObjects("taggings").count == 1)
  }

  /// For each object of `entity` (by its `title`), the `who` of its `relationship`'s rows,
  /// read three ways: the relationship, its count, and the object fetched again by its key.
  static func related(_ database: Database, _ entity: String, _ relationship: String) throws
    -> [String: [String]]
  {
    var found: [String: [String]] = [:]
    for object in try database.fetch(FetchSpecification(entityName: entity)) {
      let title = try #require(object.value(forKey: "title") as? String)
      let rows = try object.relatedObjects(relationship)
      found[title] = rows.compactMap { $0.value(forKey: "who") as? String }.sorted()
      #expect(try database.countToMany(relationship, of: object) == rows.count, "\(title)")
      let again = try database.fetchObject(entity, primaryKey: object.primaryKeyValues)
      #expect(again?.value(forKey: "title") as? String == title, "\(entity) \(title) by its key")
    }
    return found
  }

  @Test func keysCompareAsStoredInEveryQueryD2SMakes() throws {
    let session = try session(on: .sqlite)
    let database = try session.database
    // A blob key once became NULL in D2S's own queries (`badge_code IS NULL`: cy's award).
    #expect(
      try Self.related(database, "Badge", "awards") == ["gold": ["ann", "ben"], "silver": ["dee"]])
    // A double went through decimal text and back.
    #expect(
      try Self.related(database, "Level", "attempts") == ["third": ["ann"], "tenth": ["ben"]])
    // To-one titles are read for a whole list at once (`IN (…)` of the keys).
    let awards = try session.run("list Award order by who")
    #expect(
      lines(awards).prefix(7) == [
        "Award", "=====", "Badge   Who", "------  ---", "gold    ann", "gold    ben", "-       cy",
      ], "\(awards)")
    let attempts = try session.run("list Attempt order by who")
    #expect(lines(attempts).prefix(6).suffix(2) == ["third  ann", "tenth  ben"], "\(attempts)")
    // The key typed as it is shown finds the row.
    #expect(lines(try session.run("inspect Level 0.30000000000000004")).first == "third")
  }

  /// Only values a database gives are compared as they are: a number typed for a date column
  /// is refused, as before, in a filter and in an edit.
  @Test func aTypedNumberIsNoDate() throws {
    let session = try session(on: .sqlite)
    #expect(throws: (any Error).self) { try session.run("list Measure where day > 0") }
    #expect(
      (try? session.run("list Measure where day > 0")) == nil,
      "not every row (SQLite ranks text above numbers)")
    _ = try session.run("edit Measure 3")
    #expect(throws: (any Error).self) { try session.run("object.day = 5") }
    let database = try session.database
    #expect(try Self.stored(database, "quote(day)", id: "3") == "'2024-03-05'")
  }

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func aNumericKeyKeptVerbatimFindsItsRows() throws {
    let session = try session(on: .postgresql)
    let database = try session.database
    let accounts = try database.fetch(FetchSpecification(entityName: "Account"))
    let petty = try #require(
      accounts.first { $0.value(forKey: "title") as? String == "petty cash" })
    #expect(petty.databaseValue(forAttribute: "code") == .verbatim("1.50"))
    let found = try Self.related(database, "Account", "entries")
    #expect(found == ["petty cash": ["stamps", "tea"], "bank": ["rent"]], "\(found)")
    let page = lines(try session.run("inspect Account 1.50"))
    #expect(page.contains("Entries  2 (follow entries)"), "\(page)")
  }

  @Test func jsonKeepsExactness() throws {
    let session = try session(on: .sqlite)
    _ = try session.run("platform = 'json'")
    let first = try session.run("inspect Measure 1")
    #expect(first.contains(#"{"key":"reading","label":"Reading","value":"-Inf","text":"-Inf"}"#))
    #expect(first.contains(#""value":"AP9B","text":"<3 bytes: 00ff41>""#), "blobs as base64")
    #expect(first.contains(#""value":"line1\nline2\ttab\u001b[31mred\u0007""#))
    let third = try session.run("inspect Measure 3")
    #expect(third.contains(#"{"key":"note","label":"Note","value":null"#), "NULL properties too")
  }

  // MARK: - The binary: no control byte reaches the terminal

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"),
    arguments: TestServer.available)
  func noControlByteReachesTheTerminal(server: TestServer) throws {
    let database = try Self.database(on: server)
    for format in ["terminal", "markdown"] {
      let run = try BinaryTests().run(
        [
          database, "--format", format, "-c", "list Measure", "-c", "inspect Measure 1", "-c",
          "inspect Measure 2", "-c", "edit Measure 1",
        ])
      #expect(run.status == 0, "\(run.stderr)")
      let controls = run.stdout.utf8.filter { $0 < 0x20 && $0 != 0x0A || $0 == 0x7F }
      #expect(controls.isEmpty, "\(format): \(controls)")
      #expect(!run.stdout.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) })
      #expect(!run.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
    }
  }

  // MARK: - PostgreSQL

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func postgresqlValuesAreShownAsPsqlShowsThem() throws {
    let session = try session(on: .postgresql)
    let first = lines(try session.run("inspect Measure 1"))
    for line in [
      "Reading      -Infinity", "Price        253.60", "Amount       253.60",
      "Big          123456789012345678901234567890.12", "Cash         -$5.00",
      "Stamp        2024-03-05 10:11:12.345+00", "Plain Stamp  2024-03-05 10:11:12.345",
      "Clock        10:11:12+02", #"Tags         {a,NULL,"NULL","b c"}"#, "Nums         {7,8}",
      #"Note         line1\nline2\t\e[31mred\x07"#,
    ] {
      #expect(first.contains(line), "\(line)")
    }
    let second = lines(try session.run("inspect Measure 2"))
    #expect(second.contains("Cash         $1234.50") && second.contains("Tags         {}"))
    _ = try session.run("platform = 'json'")
    let json = try session.run("inspect Measure 1")
    #expect(json.contains(#""value":"123456789012345678901234567890.12""#), "a string, exact")
    #expect(json.contains(#""value":["a",null,"NULL","b c"]"#))
    #expect(json.contains(#""value":"-Infinity""#))
  }

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func postgresqlEditsRoundTrip() throws {
    let session = try session(on: .postgresql)
    let database = try session.database
    let before = try Self.row(database, id: "1", server: .postgresql)
    _ = try session.run("edit Measure 1")
    _ = try session.run("object.cash = '$7.50'")
    _ = try session.run("object.clock = '11:12:13+03'")
    _ = try session.run("object.tags = ('x', NULL)")
    _ = try session.run("object.nums = (7, 9)")
    #expect(try session.run("save") == "saved Measure 1")
    var after = try Self.row(database, id: "1", server: .postgresql)
    #expect(after["cash"] == "$7.50")
    #expect(after["clock"] == "11:12:13+03")
    #expect(after["tags"] == "{x,NULL}")
    #expect(after["nums"] == "{7,9}")
    for column in ["cash", "clock", "tags", "nums"] { after[column] = before[column] }
    #expect(after == before, "untouched columns keep their text")

    _ = try session.run("edit Measure 1")
    _ = try session.run("object.stamp = '2025-01-02 03:04:05'")
    #expect(try session.run("save") == "saved Measure 1", "-Infinity and money are no conflict")
    #expect(try Self.stored(database, "stamp::text", id: "1") == "2025-01-02 03:04:05+00")
    #expect(try Self.stored(database, "reading::text", id: "1") == "-Infinity")
    #expect(throws: (any Error).self) { try session.run("object.nums = '7'") }
  }

  @Test(.enabled(if: TestServer.available.contains(.postgresql)))
  func postgresqlOperatorsAndKeysAsTyped() throws {
    let session = try session(on: .postgresql)
    #expect {
      try session.run("list Measure where doc like '*a*'")
    } throws: { error in
      "\(error)".contains("doc, a column of type jsonb")
    }
    #expect(
      try session.run("inspect Person 550e8400-e29b-41d4-a716-446655440000").hasPrefix("Ada"))
    _ = try session.run("edit Person 12345678-1234-1234-1234-123456789abc")
    let choose = try session.run("choose manager")
    let suggestion = try #require(choose.split(separator: "\n").last)
    #expect(suggestion.hasPrefix("set it with: object.manager = KEY (e.g. object.manager = "))
    let command = String(suggestion.split(separator: "e.g. ").last?.dropLast() ?? "")
    _ = try session.run(command)
    #expect(try session.run("save").hasPrefix("saved Person"), "the suggestion is a valid command")
  }
}
