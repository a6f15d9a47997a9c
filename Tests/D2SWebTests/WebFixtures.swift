import D2STesting
import D2SWeb
import Foundation
import Testing

/// Databases and applications for the web tests: Sakila, and a small schema with the
/// awkward things real databases hold (keys with `/` and `,`, markup and quotes in values,
/// URLs that must not become script, a password column, an entity the rules hide).
enum WebFixtures {
  static let awkwardSQL = """
    CREATE TABLE invoice (number TEXT PRIMARY KEY, note TEXT, homepage TEXT, amount NUMERIC);
    INSERT INTO invoice VALUES ('INV/2024/0001', '<script>alert(1)</script>', 'javascript:alert(1)', 10);
    INSERT INTO invoice VALUES ('A,B', 'say "hi" & ''bye''', 'https://example.com/?a=1&b="2"', 20);
    INSERT INTO invoice VALUES ('100%', 'x" onmouseover="alert(1)', 'mailto:ann@example.com', 30);
    CREATE TABLE vault (id INTEGER PRIMARY KEY, secret TEXT);
    INSERT INTO vault VALUES (1, 'the crown jewels');
    CREATE TABLE account (
      id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT, vault_id INTEGER REFERENCES vault(id));
    INSERT INTO account VALUES (1, 'ann', 'hash-of-ann', 1);
    INSERT INTO account VALUES (2, 'bob', 'hash-of-bob', NULL);
    CREATE TABLE price (amount NUMERIC PRIMARY KEY, label TEXT);
    INSERT INTO price VALUES (9.99, 'cheap');
    """

  /// Rules keeping the vault out of reach (and off the entity list).
  static let hidingRules = """
    *true* => visibleEntityNames = ("Account", "Invoice", "Price")
    entity.name = 'Vault' => isEntityReachable = false

    """

  /// A rule file in a folder of its own.
  static func ruleFile(_ text: String) throws -> String {
    let folder = try TestFolders.make("d2s-web")
    let path = folder.appendingPathComponent("rules.d2s").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Rules giving a list's facets a time budget no loaded machine exceeds: facets are counted
  /// within `facetTimeBudget` and left out past it, so that pages compared member for member
  /// hold their counts however slow the run.
  static func unhurriedFacets() throws -> String {
    try ruleFile("*true* => facetTimeBudget = 600000")
  }

  static func sakila(configuration: WebApplication.Configuration = .init()) throws
    -> WebApplication
  {
    try WebApplication.open(try SakilaSQLite.copy(), configuration: configuration)
  }

  static func awkward() throws -> WebApplication {
    let path = try TestDatabases.sqliteFile(awkwardSQL, named: "awkward")
    return try WebApplication.open(path, rules: [try ruleFile(hidingRules)])
  }
}

extension WebApplication {
  /// GET `target` (path and query), as the browser at 127.0.0.1 asks.
  func get(_ target: String, accept: String? = nil, host: String? = "127.0.0.1") async
    -> WebResponse
  {
    await respond(to: WebRequest(target: target, host: host, accept: accept))
  }
}

/// Checks on HTML pages.
enum Page {
  /// The `href` values of `<a>` elements, with entities decoded.
  static func links(_ html: String) -> [String] {
    matches(#"<a [^>]*href="([^"]*)""#, in: html).map(unescape)
  }

  /// The link with `rel="…"`, decoded.
  static func link(rel: String, in html: String) -> String? {
    matches(#"<a rel="\#(rel)" href="([^"]*)""#, in: html).first.map(unescape)
  }

  /// The first-column texts of a list's body rows.
  static func firstCells(_ html: String) -> [String] {
    matches(#"<tr><td[^>]*><a href="[^"]*">([^<]*)</a>"#, in: html).map(unescape)
  }

  static func matches(_ pattern: String, in text: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }

  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// Every `<input>`, `<select>` and `<textarea>` whose id no `<label for>` names.
  static func unlabelledControls(_ html: String) -> [String] {
    let labelled = Set(matches(#"<label for="([^"]*)""#, in: html))
    let controls = matches(#"<((?:input|select|textarea)[^>]*)>"#, in: html)
    return controls.filter { control in
      if control.contains(#"type="hidden""#) { return false }
      guard let id = matches(#"id="([^"]*)""#, in: control).first else { return true }
      return !labelled.contains(id)
    }
  }
}
