import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Editing a text in a browser changes only what the user changed: a text whose lines end
/// with CR LF keeps CR LF on every line (browsers send LF-only texts' breaks as CR LF too),
/// and control characters reach the form as character references, so that they come back as
/// they were. Before, every CR of an edited text was dropped, and `\x01` and ESC were saved
/// back as U+FFFD.
@Suite struct TextAreaRoundTripTests {
  static func fixture(_ kind: ShopFixture.Kind) -> String {
    let integer = kind == .sqlite ? "INTEGER" : "integer"
    let (crlf, controls) =
      kind == .sqlite
      ? (
        "'line1' || char(13, 10) || 'line2' || char(13, 10)",
        "'x' || char(1) || 'y' || char(27) || 'z'"
      )
      : (#"E'line1\r\nline2\r\n'"#, #"E'x\x01y\x1bz'"#)
    let lf = kind == .sqlite ? "'a' || char(10) || 'b'" : #"E'a\nb'"#
    return """
      CREATE TABLE account (id \(integer) PRIMARY KEY, login TEXT NOT NULL, password TEXT);
      INSERT INTO account VALUES (1, 'ann', 'secret');
      CREATE TABLE note (id \(integer) PRIMARY KEY, body TEXT, title TEXT);
      INSERT INTO note VALUES (1, \(crlf), 'crlf'), (2, \(lf), 'lf'), (3, \(controls), 'ctl');
      """
  }

  /// The fields a browser sends for the page's edit form: character references read, and
  /// every line break as CR LF; `body` as the user left it (its line breaks as CR LF too).
  static func browserPost(_ html: String, body: String) -> [(String, String)] {
    func submitted(_ text: String) -> String {
      var text = text
      for code in 1..<32 {
        text = text.replacingOccurrences(
          of: "&#x\(String(code, radix: 16, uppercase: true));",
          with: String(UnicodeScalar(UInt8(code))))
      }
      return text.replacingOccurrences(of: "\r\n", with: "\n")
        .replacingOccurrences(of: "\r", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }
    let fields = ShopFixture.formFields(html).map { ($0.0, submitted($0.1)) }
    return ShopFixture.set(fields, ["body": submitted(body)])
  }

  static func stored(_ kind: ShopFixture.Kind, _ target: String, _ id: Int) throws -> [UInt8] {
    let adaptor: any DatabaseAdaptor =
      kind == .sqlite ? try SQLiteAdaptor(path: target) : try PostgreSQLAdaptor(url: target)
    var bytes: [UInt8] = []
    try adaptor.query(
      SQLStatement(raw: "SELECT body FROM note WHERE id = \(id)"), columns: [nil]
    ) { bytes = Array(($0[0].stringValue ?? "").utf8) }
    return bytes
  }

  @Test(arguments: ShopFixture.kinds)
  func untouchedCharactersAreSavedBackAsTheyWere(kind: ShopFixture.Kind) async throws {
    let target = try kind.database(Self.fixture(kind), named: "textarea")
    let app = try WebApplication.open(target)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    for (id, edited, expected) in [
      (1, "line1\nline2\nline3", "line1\r\nline2\r\nline3"),
      (2, "a\nb\nc", "a\nb\nc"),
      (3, "x\u{01}y\u{1B}z!", "x\u{01}y\u{1B}z!"),
    ] {
      let form = await ann.get("/Note/\(id)/-/edit")
      #expect(!form.body.contains("\u{FFFD}"), "\(id): a control character as U+FFFD")
      let saved = await ann.post(
        "/Note/\(id)/-/edit", Self.browserPost(form.body, body: edited))
      #expect(saved.status == 303, "\(id): \(saved.body.prefix(300))")
      #expect(try Self.stored(kind, target, id) == Array(expected.utf8), "\(id)")
    }
  }
}
