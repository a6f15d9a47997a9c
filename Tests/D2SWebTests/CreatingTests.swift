import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// A shop schema on both databases, with what forms must get right: a text key typed by the
/// user, numbers, a Boolean, a date and a date-time, a column of allowed values, JSON, a small
/// to-one (a select) and a large one (the choose page), and foreign keys that cascade, set
/// NULL or refuse a delete.
enum ShopFixture {
  enum Kind: String, CaseIterable, Sendable {
    case sqlite, postgresql

    /// A database of this kind made by `sql`: an SQLite file, or a PostgreSQL database of
    /// the test server, named after `name`.
    func database(_ sql: String, named name: String) throws -> String {
      switch self {
      case .sqlite: try TestDatabases.sqliteFile(sql, named: name)
      case .postgresql: try PostgresSakila.database(from: sql, prefix: name)
      }
    }
  }

  static let sqlite = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account VALUES (1, 'ann', 'secret');
    CREATE TABLE category (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    INSERT INTO category VALUES (1, 'Tools'), (2, 'Toys'), (3, 'Food');
    CREATE TABLE supplier (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
      INSERT INTO supplier SELECT i, 'Supplier ' || i FROM n;
    CREATE TABLE product (
      code TEXT PRIMARY KEY, name TEXT NOT NULL, price DECIMAL(8,2) NOT NULL DEFAULT 0,
      stock INTEGER, active BOOLEAN NOT NULL DEFAULT 1, added DATE, checked_at DATETIME,
      size TEXT CHECK (size IN ('S', 'M', 'L')), attributes JSON,
      category_id INTEGER REFERENCES category(id) ON DELETE SET NULL,
      supplier_id INTEGER REFERENCES supplier(id) ON DELETE CASCADE);
    INSERT INTO product VALUES
      ('P1', 'Hammer', 9.5, 3, 1, '2024-01-02', '2024-01-02 03:04:05', 'M', '{}', 1, 1);
    CREATE TABLE review (
      id INTEGER PRIMARY KEY, product_code TEXT NOT NULL REFERENCES product(code) ON DELETE CASCADE,
      body TEXT);
    INSERT INTO review VALUES (1, 'P1', 'good'), (2, 'P1', 'heavy');
    CREATE TABLE order_line (
      id INTEGER PRIMARY KEY, product_code TEXT REFERENCES product(code), qty INTEGER);
    INSERT INTO order_line VALUES (1, 'P1', 2);
    """

  static let postgresql = """
    CREATE TYPE size AS ENUM ('S', 'M', 'L');
    CREATE TABLE account (id serial PRIMARY KEY, login text NOT NULL, password text);
    INSERT INTO account (login, password) VALUES ('ann', 'secret');
    CREATE TABLE category (id serial PRIMARY KEY, name text NOT NULL);
    INSERT INTO category (name) VALUES ('Tools'), ('Toys'), ('Food');
    CREATE TABLE supplier (id serial PRIMARY KEY, name text NOT NULL);
    INSERT INTO supplier (name) SELECT 'Supplier ' || i FROM generate_series(1, 150) i;
    CREATE TABLE product (
      code text PRIMARY KEY, name text NOT NULL, price numeric(8,2) NOT NULL DEFAULT 0,
      stock integer, active boolean NOT NULL DEFAULT true, added date, checked_at timestamp,
      size size, tags text[], attributes jsonb,
      category_id integer REFERENCES category(id) ON DELETE SET NULL,
      supplier_id integer REFERENCES supplier(id) ON DELETE CASCADE);
    INSERT INTO product VALUES
      ('P1', 'Hammer', 9.5, 3, true, '2024-01-02', '2024-01-02 03:04:05', 'M', '{a}', '{}', 1, 1);
    CREATE TABLE review (
      id serial PRIMARY KEY, product_code text NOT NULL REFERENCES product(code) ON DELETE CASCADE,
      body text);
    INSERT INTO review (product_code, body) VALUES ('P1', 'good'), ('P1', 'heavy');
    CREATE TABLE order_line (
      id serial PRIMARY KEY, product_code text REFERENCES product(code), qty integer);
    INSERT INTO order_line (product_code, qty) VALUES ('P1', 2);
    """

  static var hasPostgreSQL: Bool {
    ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil
  }

  /// The kinds this machine can test (PostgreSQL when a test server is given).
  static var kinds: [Kind] { hasPostgreSQL ? Kind.allCases : [.sqlite] }

  /// A new shop database of `kind`, served; its target (a path or a conninfo).
  static func open(_ kind: Kind, readOnly: Bool = false, rules: [String] = []) throws -> (
    WebApplication, String
  ) {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(sqlite, named: "shop")
      case .postgresql: try PostgresSakila.database(from: postgresql, prefix: "shop")
      }
    return (try WebApplication.open(target, rules: rules, readOnly: readOnly), target)
  }

  /// One row of `sql` on the database, its values as text joined by `|`.
  static func stored(_ kind: Kind, _ target: String, _ sql: String) throws -> String {
    let adaptor: any DatabaseAdaptor =
      switch kind {
      case .sqlite: try SQLiteAdaptor(path: target)
      case .postgresql: try PostgreSQLAdaptor(url: target)
      }
    var result = ""
    try adaptor.query(SQLStatement(raw: sql), columns: [nil, nil, nil, nil, nil, nil, nil, nil]) {
      row in
      result = row.map { $0.isNull ? "NULL" : ($0.stringValue ?? $0.description) }.joined(
        separator: "|")
    }
    return result
  }

  /// Every hidden field of the page's edit form, and the values of its other controls as the
  /// page sets them (a checkbox only when ticked; a select's chosen option).
  static func formFields(_ html: String) -> [(String, String)] {
    guard let start = html.range(of: "<form class=\"edit\""),
      let end = html.range(of: "</form>", range: start.upperBound..<html.endIndex)
    else { return [] }
    let form = String(html[start.lowerBound..<end.lowerBound])
    var fields: [(String, String)] = []
    for input in Page.matches(#"<input ([^>]*)>"#, in: form) {
      guard let name = Page.matches(#"name="([^"]*)""#, in: input).first else { continue }
      // A checkbox without a value is sent as `on`.
      let value =
        Page.matches(#"value="([^"]*)""#, in: input).first
        ?? (input.contains(#"type="checkbox""#) ? "on" : "")
      if input.contains(#"type="checkbox""#), !input.contains(" checked") { continue }
      fields.append((Page.unescape(name), Page.unescape(value)))
    }
    for select in Page.matches(#"(<select [^>]*>.*?</select>)"#, in: form) {
      guard let name = Page.matches(#"name="([^"]*)""#, in: select).first else { continue }
      let chosen = Page.matches(#"<option value="([^"]*)" selected>"#, in: select).first ?? ""
      fields.append((Page.unescape(name), Page.unescape(chosen)))
    }
    for area in Page.matches(#"(<textarea [^>]*>)"#, in: form) {
      guard let name = Page.matches(#"name="([^"]*)""#, in: area).first,
        let text = Page.matches(
          #"name="\#(name)"[^>]*>\n([^<]*)</textarea>"#, in: form
        ).first
      else { continue }
      fields.append((Page.unescape(name), Page.unescape(text)))
    }
    return fields
  }

  /// `fields` with `changes` made: a value set, or (for a nil value) the control removed.
  static func set(_ fields: [(String, String)], _ changes: [String: String?]) -> [(String, String)]
  {
    var result = fields.filter { changes[$0.0] == nil }
    for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
      if let value { result.append((name, value)) }
    }
    return result
  }
}

/// New objects, per-type controls, to-ones chosen from a select or the choose page, and what
/// a delete does to referring rows, on both databases; the stored values are read back.
@Suite struct WebCreatingTests {
  @Test(arguments: ShopFixture.kinds)
  func aNewObjectIsMadeOnceWithEveryValueAsTyped(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(kind)
    let ann = WebClient(app)
    #expect(await ann.login("ann", "secret").status == 303)
    let list = await ann.get("/Product")
    #expect(Page.links(list.body).contains("/Product/-/new"))
    let page = await ann.get("/Product/-/new")
    #expect(page.status == 200)
    let html = page.body
    #expect(Page.unlabelledControls(html).isEmpty)
    #expect(html.contains(#"name="_once""#))
    #expect(html.contains(#"id="f-code" name="code""#), "a text key is typed by the user")
    #expect(html.contains(#"name="stock" type="number" step="1""#))
    #expect(html.contains(#"name="price" type="number" step="0.01""#))
    #expect(html.contains(#"name="active" type="checkbox""#))
    #expect(html.contains(#"name="added" type="date""#))
    #expect(html.contains(#"name="checkedAt" type="datetime-local""#))
    #expect(html.contains(#"<option value="L">L</option>"#), "the allowed sizes")
    #expect(html.contains(#"<option value="2">Toys</option>"#), "a small to-one is a select")
    #expect(
      html.contains(#"href="/Product/-/choose/supplier""#), "a large one has the choose page")
    let fields = ShopFixture.set(
      ShopFixture.formFields(html),
      [
        "code": "P/2", "name": "Saw <b>", "price": "12.50", "stock": "7", "active": nil,
        "added": "2024-03-05", "checkedAt": "2024-03-05T10:11", "size": "L", "category": "2",
        "supplier": "17", "attributes": #"{"teeth": 24}"#,
        "_null.stock": nil, "_null.added": nil, "_null.checkedAt": nil, "_null.size": nil,
        "_null.category": nil, "_null.supplier": nil, "_null.attributes": nil,
      ])
    let saved = await ann.post("/Product/-/new", fields)
    #expect(saved.status == 303, "\(saved.body)")
    #expect(saved.header("Location") == "/Product/P%2F2")
    let columns =
      "name, price, stock, active, added, checked_at, size, category_id || ',' || supplier_id"
    let expected =
      kind == .sqlite
      ? "Saw <b>|12.5|7|0|2024-03-05|2024-03-05 10:11:00|L|2,17"
      : "Saw <b>|12.50|7|false|2024-03-05|2024-03-05 10:11:00|L|2,17"
    let cast = kind == .sqlite ? columns : columns.replacingOccurrences(of: ", ", with: "::text, ")
    #expect(
      try ShopFixture.stored(kind, target, "SELECT \(cast) FROM product WHERE code = 'P/2'")
        == expected)
    // The same form sent again leads to the same object and makes no other.
    let again = await ann.post("/Product/-/new", fields)
    #expect(again.status == 303)
    #expect(again.header("Location") == "/Product/P%2F2")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "2")
  }

  @Test(arguments: ShopFixture.kinds)
  func anInvalidNewObjectIsShownAgainAndItsFormCanBeSentOnceFixed(kind: ShopFixture.Kind)
    async throws
  {
    let (app, target) = try ShopFixture.open(kind)
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let page = await ann.get("/Product/-/new")
    var fields = ShopFixture.set(
      ShopFixture.formFields(page.body),
      ["code": "P3", "name": "Glue", "attributes": "{not json", "_null.attributes": nil])
    let invalid = await ann.post("/Product/-/new", fields)
    #expect(invalid.status == 400)
    #expect(invalid.body.contains(#"aria-describedby="e-attributes""#))
    #expect(invalid.body.contains("not valid JSON"))
    #expect(invalid.body.contains("{not json"), "what the user typed is kept")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "1")
    fields = ShopFixture.set(fields, ["attributes": "[1, 2]"])
    let saved = await ann.post("/Product/-/new", fields)
    #expect(
      saved.status == 303, "the same one-time token works once the form is fixed \(saved.body)")
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "2")
    // Tokens: none, another form's, a forged one.
    var noToken = fields.filter { $0.0 != "_once" }
    #expect(await ann.post("/Product/-/new", noToken).status == 403)
    noToken.append(("_once", "bm9uZQ.AAAA"))
    #expect(await ann.post("/Product/-/new", noToken).status == 403)
    let otherForm = ShopFixture.formFields(await ann.get("/Category/-/new").body)
    let once = try #require(otherForm.first { $0.0 == "_once" })
    #expect(
      await ann.post("/Product/-/new", fields.filter { $0.0 != "_once" } + [once]).status == 403,
      "a token is bound to its form's path")
  }

  @Test(arguments: ShopFixture.kinds)
  func theChoosePageFillsAToOneInAndTheSaveStoresIt(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(kind)
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let form = await ann.get("/Product/P1/-/edit")
    #expect(form.body.contains(#"href="/Product/P1/-/choose/supplier""#))
    #expect(Page.unlabelledControls(form.body).isEmpty)
    let choose = await ann.get("/Product/P1/-/choose/supplier?q=upplier+17")
    #expect(choose.status == 200)
    #expect(Page.unlabelledControls(choose.body).isEmpty)
    let links = Page.links(choose.body).filter { $0.contains("supplier=") }
    #expect(links == ["/Product/P1/-/edit?supplier=17"], "\(links)")
    #expect(await ann.get("/Product/P1/-/choose/name").status == 404, "not a to-one")
    #expect(await ann.get("/Product/P1/-/choose/reviews").status == 404, "not a to-one")
    let chosen = await ann.get("/Product/P1/-/edit?supplier=17")
    let fields = ShopFixture.formFields(chosen.body)
    #expect(fields.contains { $0 == ("supplier", "17") })
    let saved = await ann.post("/Product/P1/-/edit", fields)
    #expect(saved.status == 303, "\(saved.body)")
    #expect(
      try ShopFixture.stored(kind, target, "SELECT supplier_id FROM product WHERE code = 'P1'")
        == "17")
    // A key no supplier has is an error beside the field; a checkbox left unticked is false.
    let again = ShopFixture.formFields(await ann.get("/Product/P1/-/edit").body)
    let wrong = await ann.post(
      "/Product/P1/-/edit", ShopFixture.set(again, ["supplier": "999"]))
    #expect(wrong.status == 400)
    #expect(wrong.body.contains(#"aria-describedby="e-supplier""#))
    let unticked = await ann.post("/Product/P1/-/edit", ShopFixture.set(again, ["active": nil]))
    #expect(unticked.status == 303)
    #expect(
      try ShopFixture.stored(
        kind, target, "SELECT CAST(active AS integer) FROM product WHERE code = 'P1'") == "0")
  }

  @Test(arguments: ShopFixture.kinds)
  func aToOneChangedMeanwhileIsAConflictThatKeepingSettles(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(kind)
    let first = WebClient(app)
    await first.login("ann", "secret")
    let second = WebClient(app)
    await second.login("ann", "secret")
    let stale = ShopFixture.formFields(await first.get("/Product/P1/-/edit").body)
    let theirs = ShopFixture.formFields(await second.get("/Product/P1/-/edit").body)
    #expect(
      await second.post("/Product/P1/-/edit", ShopFixture.set(theirs, ["category": "2"])).status
        == 303)
    let conflict = await first.post(
      "/Product/P1/-/edit", ShopFixture.set(stale, ["category": "3"]))
    #expect(conflict.status == 409)
    #expect(conflict.body.contains("<td>2</td>"), "what is stored now")
    let kept = await first.post(
      "/Product/P1/-/edit",
      ShopFixture.set(ShopFixture.formFields(conflict.body), ["category": "3"]))
    #expect(kept.status == 303, "keeping their value settles it")
    #expect(
      try ShopFixture.stored(kind, target, "SELECT category_id FROM product WHERE code = 'P1'")
        == "3")
  }

  @Test(arguments: ShopFixture.kinds)
  func theDeletePageSaysWhatHappensToReferringRows(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(kind)
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let product = await ann.get("/Product/P1/-/delete")
    #expect(product.status == 200)
    #expect(product.body.contains("2 Review (Reviews): deleted with it"), "\(product.body)")
    #expect(
      product.body.contains("1 OrderLine (Order Lines): the database refuses the delete"))
    // A delete the database would refuse is explained before any button.
    #expect(product.body.contains("The database refuses to delete it while rows refer to it"))
    #expect(!product.body.contains(#"<form class="delete""#))
    // Sent anyway (with a token from another form), it changes nothing.
    let tokenPage = await ann.get("/Category/2/-/delete")
    let refused = await ann.post(
      "/Product/P1/-/delete",
      WebDeletingTests.confirmFields(tokenPage.body).filter { $0.0 == "_csrf" })
    #expect(refused.status == 409)
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM review") == "2")
    let category = await ann.get("/Category/1/-/delete")
    #expect(category.body.contains("1 Product (Products): their Category Id set to NULL"))
    // Fields by their labels, not their keys.
    #expect(category.body.contains(#"<th scope="row">Name</th>"#))
    let deleted = await ann.post(
      "/Category/1/-/delete", WebDeletingTests.confirmFields(category.body))
    #expect(deleted.status == 303)
    #expect(
      try ShopFixture.stored(
        kind, target, "SELECT coalesce(CAST(category_id AS text), 'NULL') FROM product")
        == "NULL")
  }

  @Test(arguments: ShopFixture.kinds)
  func whatTheRulesHideStaysHiddenOnFormsAndDeletePages(kind: ShopFixture.Kind) async throws {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(ShopFixture.sqlite, named: "shop")
      case .postgresql: try PostgresSakila.database(from: ShopFixture.postgresql, prefix: "shop")
      }
    let rules = try WebFixtures.ruleFile(
      """
      entity.name = 'Review' => isEntityReachable = false
      entity.name = 'Supplier' => isEntityReachable = false

      """)
    let app = try WebApplication.open(target, rules: [rules])
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let account = await ann.get("/Account/1/-/delete")
    #expect(account.status == 200)
    #expect(!account.body.contains("secret"), "a password is never on a page")
    // Its reviews (hidden) would be deleted with it: not from here.
    let product = await ann.get("/Product/P1/-/delete")
    #expect(product.body.contains("rows you cannot see"))
    #expect(!product.body.contains("Review") && !product.body.contains("2 other"))
    let csrf = WebClient.csrf(product.body) ?? ""
    #expect(await ann.post("/Product/P1/-/delete", [("_csrf", csrf)]).status == 409)
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "1")
    // A foreign key into a hidden entity is no field, and a link fills in only to-ones.
    let form = await ann.get("/Product/P1/-/edit?name=Changed&supplierId=9")
    #expect(!form.body.contains(#"name="supplierId""#) && !form.body.contains(#"name="supplier""#))
    #expect(!form.body.contains("Changed"), "a link does not fill in a field")
  }

  @Test(arguments: ShopFixture.kinds)
  func newAndChooseCheckTokensPermissionsAndEscape(kind: ShopFixture.Kind) async throws {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(ShopFixture.sqlite, named: "shop")
      case .postgresql: try PostgresSakila.database(from: ShopFixture.postgresql, prefix: "shop")
      }
    let admin: any DatabaseAdaptor =
      kind == .sqlite ? try SQLiteAdaptor(path: target) : try PostgreSQLAdaptor(url: target)
    try admin.execute(
      SQLStatement(raw: "UPDATE category SET name = '\"><script>alert(1)</script>' WHERE id = 1"))
    try admin.execute(SQLStatement(raw: "INSERT INTO product (code, name) VALUES ('P9', 'Locked')"))
    let rules = try WebFixtures.ruleFile(
      "entity.name = 'Product' AND object.code = 'P9' => isObjectEditable = false ; high\n")
    let app = try WebApplication.open(target, rules: [rules])
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    // New: a POST without the session's CSRF token changes nothing.
    let fields = ShopFixture.set(
      ShopFixture.formFields(await ann.get("/Product/-/new").body),
      ["code": "P5", "name": "Nail", "_csrf": nil])
    #expect(await ann.post("/Product/-/new", fields).status == 403)
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "2")
    // Choose: escaped values, GET only, the object's permissions.
    let select = await ann.get("/Product/P1/-/edit")
    #expect(!select.body.contains("<script>alert"))
    #expect(select.body.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    let choose = await ann.get("/Product/P1/-/choose/category")
    #expect(choose.status == 200)
    #expect(!choose.body.contains("<script>alert"))
    #expect(await ann.post("/Product/P1/-/choose/category", [("_csrf", "x")]).status == 405)
    #expect(await ann.get("/Product/P9/-/choose/category").status == 403)
    #expect(await ann.get("/Product/P9/-/edit").status == 403)
  }

  @Test(arguments: ShopFixture.kinds)
  func anonymousAndReadOnlyServersMakeNothing(kind: ShopFixture.Kind) async throws {
    let (app, target) = try ShopFixture.open(kind)
    let anonymous = WebClient(app)
    #expect(await anonymous.get("/Product/-/new").status == 303)
    #expect(!Page.links(await anonymous.get("/Product").body).contains("/Product/-/new"))
    #expect(await anonymous.post("/Product/-/new", [("code", "X")]).status == 403)
    #expect(await anonymous.get("/Product/P1/-/choose/supplier").status == 303)
    let (readOnly, _) = try ShopFixture.open(kind, readOnly: true)
    let ann = WebClient(readOnly)
    await ann.login("ann", "secret")
    #expect(await ann.get("/Product/-/new").status == 403)
    #expect(!Page.links(await ann.get("/Product").body).contains("/Product/-/new"))
    #expect(try ShopFixture.stored(kind, target, "SELECT count(*) FROM product") == "1")
  }

  @Test(.enabled(if: ShopFixture.hasPostgreSQL))
  func postgreSQLArraysAndJSONAreTypedAsTextAndChecked() async throws {
    let (app, target) = try ShopFixture.open(.postgresql)
    let ann = WebClient(app)
    await ann.login("ann", "secret")
    let form = await ann.get("/Product/P1/-/edit")
    #expect(form.body.contains(#"name="tags" value="{a}""#))
    let fields = ShopFixture.formFields(form.body)
    let wrong = await ann.post("/Product/P1/-/edit", ShopFixture.set(fields, ["tags": "a, b"]))
    #expect(wrong.status == 400)
    #expect(wrong.body.contains("write an array as"))
    let saved = await ann.post(
      "/Product/P1/-/edit",
      ShopFixture.set(fields, ["tags": #"{x,"b c",NULL,"NULL"}"#, "attributes": #"{"k": [1]}"#]))
    #expect(saved.status == 303, "\(saved.body)")
    #expect(
      try ShopFixture.stored(
        .postgresql, target, "SELECT tags::text, attributes::text FROM product WHERE code = 'P1'")
        == #"{x,"b c",NULL,"NULL"}|{"k": [1]}"#)
  }
}
