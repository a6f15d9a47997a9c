import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A long text holding a NUL is not rewritten when another field of its row is saved: the
/// form carries it back as its digest, made of what the form holds (U+FFFD for the NUL).
@Suite struct LongTextNULTests {
  @Test func aLongTextWithANULIsNotRewritten() async throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
      INSERT INTO account VALUES (1, 'ann', 'secret');
      CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, title TEXT);
      INSERT INTO note VALUES (1, 'a' || char(0) || 'b' || hex(zeroblob(1000)), 't');
      """, named: "nul-long")
    let app = try WebApplication.open(path)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    func body() throws -> Data {
      var data = Data()
      try SQLiteAdaptor(path: path).query(
        SQLStatement(raw: "SELECT CAST(body AS BLOB) FROM note"), columns: [nil]
      ) { if case .data(let bytes) = $0[0] { data = bytes } }
      return data
    }
    let before = try body()
    let form = await ann.get("/Note/1/-/edit")
    // The browser sends back what the form holds: U+FFFD for the NUL.
    let saved = await ann.post(
      "/Note/1/-/edit", ShopFixture.set(ShopFixture.formFields(form.body), ["title": "u"]))
    #expect(saved.status == 303, "\(saved.status)")
    #expect(try body() == before, "the text was rewritten")
  }
}
