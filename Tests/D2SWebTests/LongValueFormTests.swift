import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// An edit form carries a long value once: the values first shown (`_shown`, `_text`) are
/// digests past a kilobyte, so a row holding 400 KB of text can be edited within the body
/// limit, and a change made meanwhile to the long value is still a conflict. Before, the form
/// held each value three times (five times for text beyond ASCII), and any save of
/// such a row was a 413.
@Suite struct LongValueFormTests {
  static let fixture = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account VALUES (1, 'ann', 'secret');
    CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, title TEXT);
    INSERT INTO note VALUES (1, replace(hex(zeroblob(200000)), '00', 'xy'), 'long'),
      (2, 'short', 'two');
    """

  static func stored(_ path: String, _ sql: String) throws -> String {
    var text = ""
    try SQLiteAdaptor(path: path).query(SQLStatement(raw: sql), columns: [nil]) {
      text = $0[0].stringValue ?? $0[0].description
    }
    return text
  }

  @Test func aLongValueIsEditedAndItsConflictsFound() async throws {
    let path = try TestDatabases.sqliteFile(Self.fixture, named: "longform")
    let app = try WebApplication.open(path)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let form = await ann.get("/Note/1/-/edit")
    #expect(form.status == 200)
    #expect(form.body.utf8.count < 1_200_000, "the value once: \(form.body.utf8.count) bytes")
    // Only the title changes: the body is sent back as it was shown.
    let fields = ShopFixture.formFields(form.body)
    let saved = await ann.post("/Note/1/-/edit", ShopFixture.set(fields, ["title": "edited"]))
    #expect(saved.status == 303, "\(saved.status): \(saved.body.prefix(300))")
    #expect(try Self.stored(path, "SELECT title FROM note WHERE id = 1") == "edited")
    #expect(try Self.stored(path, "SELECT length(body) FROM note WHERE id = 1") == "400000")
    // The body changed meanwhile, and the user edits it: a conflict.
    let again = await ann.get("/Note/1/-/edit")
    try SQLiteAdaptor(path: path).execute(
      SQLStatement(raw: "UPDATE note SET body = body || '!' WHERE id = 1"))
    let body = String(repeating: "z", count: 300_000)
    let conflict = await ann.post(
      "/Note/1/-/edit", ShopFixture.set(ShopFixture.formFields(again.body), ["body": body]))
    #expect(conflict.status == 409, "\(conflict.status)")
    #expect(try Self.stored(path, "SELECT length(body) FROM note WHERE id = 1") == "400001")
    // Without a change meanwhile, the long body is saved.
    let third = await ann.get("/Note/1/-/edit")
    let replaced = await ann.post(
      "/Note/1/-/edit", ShopFixture.set(ShopFixture.formFields(third.body), ["body": body]))
    #expect(replaced.status == 303, "\(replaced.status): \(replaced.body.prefix(300))")
    #expect(try Self.stored(path, "SELECT length(body) FROM note WHERE id = 1") == "300000")
    // A short value's form is as before.
    let short = await ann.get("/Note/2/-/edit")
    #expect(short.body.contains(#"name="_text.body" value="short""#))
  }
}
