import D2STesting
import D2SWeb
import Foundation
import Testing

/// CSV of every list (`format=csv`, `d2s-repl --format csv`): the whole filtered list, its
/// values as stored (the rows and values `sqlite3 -csv` gives for the same query), RFC 4180
/// quoting, an attachment; the same bytes from the REPL; a spreadsheet-safe form.
@Suite struct CSVTests {
  /// Awkward values (NULL beside the empty text, commas, quotes, line breaks, a formula, a
  /// blob, text beyond ASCII), then enough plain rows that the download is streamed in more
  /// than one chunk.
  static let fixture = """
    CREATE TABLE thing (id INTEGER PRIMARY KEY, name TEXT, amount REAL, count INTEGER, data BLOB);
    INSERT INTO thing VALUES (1, 'plain', 1.5, 3, NULL), (2, 'comma, inside', -2.25, -7, X'00FF41'),
      (3, 'say "hi"', NULL, 0, NULL), (4, 'two' || char(10) || 'lines', 0.1, NULL, NULL),
      (5, '', 3.0, 1, NULL), (6, NULL, NULL, NULL, NULL), (7, '=HYPERLINK("http://x")', 1234.5, 2, NULL),
      (8, '-5', 2, 2, NULL), (9, 'crlf' || char(13) || char(10) || 'x', NULL, NULL, NULL),
      (10, 'ünïcödé ☃', NULL, NULL, NULL), (11, ' spaced ', NULL, NULL, NULL), (12, '@SUM(A1)', NULL, NULL, NULL);
    WITH RECURSIVE n(i) AS (SELECT 13 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
      INSERT INTO thing SELECT i, 'row ' || i || ' of the fixture', i / 4.0, i * 3, NULL FROM n;
    """
  static let rules = """
    entity.name = 'Thing' AND task = 'list' => displayPropertyKeys = ('name', 'amount', 'count', 'data')
    """

  static func app() throws -> (WebApplication, String, String) {
    let path = try TestDatabases.sqliteFile(fixture, named: "things")
    let rules = try WebFixtures.ruleFile(Self.rules)
    return (try WebApplication.open(path, rules: [rules]), path, rules)
  }

  /// The records of CSV text, each field nil for an empty unquoted field (NULL) or its text.
  static func records(_ text: String) -> [[String?]] {
    var records: [[String?]] = []
    var record: [String?] = []
    var field = ""
    var quoted = false
    var inQuotes = false
    var scalars = text.unicodeScalars.makeIterator()
    var pending = scalars.next()
    func endField() {
      record.append(field.isEmpty && !quoted ? nil : field)
      field = ""
      quoted = false
    }
    while let scalar = pending {
      pending = scalars.next()
      if inQuotes {
        if scalar == "\"" {
          if pending == "\"" {
            field.unicodeScalars.append("\"")
            pending = scalars.next()
          } else {
            inQuotes = false
          }
        } else {
          field.unicodeScalars.append(scalar)
        }
      } else if scalar == "\"" {
        inQuotes = true
        quoted = true
      } else if scalar == "," {
        endField()
      } else if scalar == "\r", pending == "\n" {
        continue
      } else if scalar == "\n" {
        endField()
        records.append(record)
        record = []
      } else {
        field.unicodeScalars.append(scalar)
      }
    }
    if !record.isEmpty || !field.isEmpty {
      endField()
      records.append(record)
    }
    return records
  }

  @Test func theDownloadHasTheRowsAndValuesSQLite3Gives() async throws {
    let (app, path, _) = try Self.app()
    let page = await app.get("/Thing?format=csv&order=id")
    #expect(page.status == 200)
    #expect(page.contentType == "text/csv; charset=utf-8; header=present")
    #expect(
      page.headers.contains {
        $0.0 == "Content-Disposition" && $0.1 == #"attachment; filename="Thing.csv""#
      })
    let web = Self.records(page.body)
    #expect(web.first == ["Name", "Amount", "Count", "Data"])
    #expect(web.count == 4001, "the whole list, not a window of it")
    // The same query through sqlite3 -csv: blobs in PostgreSQL's hex form.
    let (status, written) = try Self.output(
      "/usr/bin/sqlite3",
      [
        "-csv", path,
        #"SELECT name, amount, count, CASE WHEN data IS NULL THEN NULL ELSE '\x' || lower(hex(data)) END FROM thing ORDER BY id"#,
      ])
    #expect(status == 0)
    let shell = Self.records(written)
    #expect(Array(web.dropFirst()) == shell)
    // Spot checks of the awkward values, as bytes.
    #expect(page.body.contains("\r\n,,,\r\n"), "NULLs are empty fields")
    #expect(page.body.contains("\r\n\"\",3.0,1,\r\n"), "the empty text is quoted: it is no NULL")
    #expect(page.body.contains(#""say ""hi""",,0,"#))
    #expect(page.body.contains("\"two\nlines\",0.1,,\r\n"))
    #expect(page.body.contains(#""comma, inside",-2.25,-7,\x00ff41"#))
    #expect(page.body.contains(#""=HYPERLINK(""http://x"")",1234.5,2,"#), "as stored by default")
  }

  @Test func theFilterSearchAndOrderApplyAndLimitIsAWindow() async throws {
    let (app, _, _) = try Self.app()
    let filtered = await app.get(
      "/Thing?format=csv&order=" + "count desc".webQuery + "&where="
        + "count < 9 and count != nil".webQuery)
    #expect(
      Self.records(filtered.body).dropFirst().map { $0[2] } == ["3", "2", "2", "1", "0", "-7"])
    let searched = await app.get("/Thing?format=csv&q=fixture&limit=3&order=id")
    #expect(
      Self.records(searched.body).dropFirst().map { $0[0] } == [
        "row 13 of the fixture", "row 14 of the fixture", "row 15 of the fixture",
      ])
    let bad = await app.get("/Thing?format=csv&where=" + "nosuch = 1".webQuery)
    #expect(bad.status == 400, "a filter that cannot be used is an error, not the list without it")
    #expect(await app.get("/Thing?format=csv&csv=bogus").status == 400)
    #expect(await app.get("/Thing?format=xml").status == 400)
  }

  @Test func theSpreadsheetSafeFormPrefixesFormulasAndTheShownFormShowsText() async throws {
    let (app, _, _) = try Self.app()
    let safe = await app.get("/Thing?format=csv&csv=safe&order=id&limit=12")
    #expect(safe.body.contains(#""'=HYPERLINK(""http://x"")",1234.5,2,"#))
    #expect(safe.body.contains("\r\n'-5,2.0,2,\r\n"), "a text cell beginning with -")
    #expect(safe.body.contains("\r\n'@SUM(A1),,,\r\n"))
    #expect(safe.body.contains(",-2.25,-7,"), "numbers are never prefixed")
    let shown = await app.get("/Thing?format=csv&csv=shown&order=id&limit=2")
    #expect(Self.records(shown.body)[2][3]?.hasPrefix("<3 bytes") == true, "the blob as shown")
  }

  @Test func aDownloadsHeadIsItsHeadersAlone() async throws {
    let (app, _, _) = try Self.app()
    let head = await app.respond(
      to: WebRequest(method: "HEAD", target: "/Thing?format=csv", host: "127.0.0.1"))
    #expect(head.status == 200 && head.body.isEmpty)
    #expect(head.contentType == "text/csv; charset=utf-8; header=present")
    #expect(head.header("Content-Disposition") == #"attachment; filename="Thing.csv""#)
  }

  @Test func theListPageLinksToTheDownload() async throws {
    let (app, _, _) = try Self.app()
    let page = await app.get("/Thing?q=fixture&order=id&limit=5")
    #expect(Page.links(page.body).contains("/Thing?q=fixture&order=id&format=csv"))
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: CSVTests.replBinary.path), "build d2s-repl first"))
  func theREPLWritesTheSameBytes() async throws {
    let (app, path, rules) = try Self.app()
    let web = await app.get("/Thing?format=csv&order=id")
    let (status, written) = try Self.output(
      Self.replBinary.path,
      [path, "--rules", rules, "--format", "csv", "-c", "list Thing order by id"])
    #expect(status == 0)
    #expect(written == web.body)
  }

  /// Runs `program` with `arguments`: its exit status and standard output, kept in a
  /// temporary folder of its own meanwhile.
  static func output(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-csv-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.csv")
    let status = try Spawn.run(program, arguments, outputPath: output.path)
    return (status, String(decoding: try Data(contentsOf: output), as: UTF8.self))
  }

  static var replBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("d2s-repl")
  }
}

/// CSV over PostgreSQL: the rows and values `psql --csv` gives for the same query, but for
/// booleans (`true`/`false` where psql writes `t`/`f`) and `money`, a number with its two
/// decimals (`-5.00` where psql writes `-$5.00`).
@Suite struct PostgreSQLCSVTests {
  @Test func theDownloadHasTheValuesPsqlGives() async throws {
    let url = try PostgresSakila.database(
      from: """
        CREATE TABLE item (id integer PRIMARY KEY, name text, price numeric(8,2), seen timestamp,
          tags text[], picture bytea, fine boolean, cost money);
        INSERT INTO item VALUES (1, 'a, "b"', 12.50, '2026-01-02 03:04:05', '{x,"y z",NULL}', '\\x00ff', true, '-5'),
          (2, '', NULL, NULL, NULL, NULL, NULL, '1234567.8'),
          (3, NULL, -0.05, '1999-12-31 23:59:59.5', '{}', '', false, '0.1');
        """, prefix: "csv")
    let rules = try WebFixtures.ruleFile(
      "entity.name = 'Item' AND task = 'list' => displayPropertyKeys = ('name', 'price', 'seen', 'tags', 'picture', 'fine', 'cost')"
    )
    let app = try WebApplication.open(url, rules: [rules])
    let page = await app.get("/Item?format=csv&order=id")
    #expect(page.status == 200)
    let expected = [
      "Name,Price,Seen,Tags,Picture,Fine,Cost",
      #""a, ""b""",12.50,2026-01-02 03:04:05,"{x,""y z"",NULL}",\x00ff,true,-5.00"#,
      #""",,,,,,1234567.80"#,
      #",-0.05,1999-12-31 23:59:59.5,{},\x,false,0.10"#,
    ]
    #expect(page.body == expected.map { $0 + "\r\n" }.joined())
  }
}
