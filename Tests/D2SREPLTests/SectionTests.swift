import Components
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Sections and tabs from `displayPropertyKeys` (`(Basics)`, `[Pricing]`, as ERD2W writes
/// them) on inspect, edit and new pages, in the terminal, Markdown and JSON; lists and the
/// rule tools leave the headings out.
@Suite struct SectionTests {
  static let sql = """
    CREATE TABLE gadget (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC,
      weight REAL, notes TEXT);
    INSERT INTO gadget VALUES (1, 'Sprocket', 4.5, 0.25, 'fragile');
    """

  static let rules = [
    "rule task = 'inspect' => displayPropertyKeys = ('name', '[Pricing]', 'price', '[Shipping]', 'weight', 'notes')",
    "rule task = 'edit' => displayPropertyKeys = ('(About)', 'name', 'notes', '[Pricing]', 'price', '[Shipping]', 'weight')",
  ]

  func session(format: String? = nil) throws -> REPLSession {
    let session = try REPLSession(width: 80)
    _ = try session.run("open \(try TestDatabases.sqliteFile(Self.sql, named: "gadgets"))")
    for rule in Self.rules { _ = try session.run(rule) }
    if let format { _ = try session.run("platform = '\(format)'") }
    return session
  }

  @Test func theTerminalHeadsEachGroup() throws {
    let page = try session().run("inspect Gadget 1")
    #expect(
      page == """
        Sprocket
        ========
        Name    Sprocket

        Pricing
        -------
        Price   4.5

        Shipping
        --------
        Weight  0.25
        Notes   fragile
        """)
    let edit = try session().run("edit Gadget 1")
    #expect(
      edit.contains("About\n-----\nName    [Sprocket]\nNotes   [fragile]\n\nPricing\n-------"))
  }

  @Test func markdownHasHeadingsAndJSONAMember() throws {
    let markdown = try session(format: "markdown").run("inspect Gadget 1")
    #expect(markdown.contains("## Pricing\n\n| Property | Value |\n| --- | --- |\n| Price | 4.5 |"))
    #expect(markdown.contains("## Shipping\n\n| Property | Value |"))
    let json = try session(format: "json").run("inspect Gadget 1")
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let sections = object?["sections"] as? [[String: Any]]
    #expect(sections?.count == 2)
    #expect(sections?.first?["title"] as? String == "Pricing")
    #expect(sections?.first?["kind"] as? String == "tab")
    #expect(sections?.last?["keys"] as? [String] == ["weight", "notes"])
    // The properties stay one flat list, headings not among them.
    let keys = (object?["properties"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
    #expect(keys == ["name", "price", "weight", "notes"])
  }

  @Test func listsAndNewObjectsHonourThem() throws {
    let session = try session()
    _ = try session.run("rule task = 'list' => displayPropertyKeys = ('(Main)', 'name', 'price')")
    let list = try session.run("list Gadget")
    #expect(list.contains("Name") && !list.contains("Main"))
    let new = try session.run("new Gadget")
    #expect(new.contains("About\n-----") && new.contains("Shipping\n--------"))
    _ = try session.run("object.name = 'Cog'")
    _ = try session.run("object.weight = 2.5")
    #expect(try session.run("save").hasPrefix("saved Gadget"))
    #expect(!(try session.run("lint")).contains("(Main)"), "a heading is no missing property")
  }

  @Test func headingsAreParsedAsERD2WWritesThem() {
    #expect(PropertyGroup.heading("(Basics)").map { "\($0.isTab) \($0.title)" } == "false Basics")
    #expect(PropertyGroup.heading("[Pricing]").map { "\($0.isTab) \($0.title)" } == "true Pricing")
    for entry in ["()", "( )", "title", "(half", "[x)", "address.phone"] {
      #expect(PropertyGroup.heading(entry) == nil, "\(entry)")
    }
    #expect(
      PropertyGroup.groups(["a", "(S)", "b", "[T]", "[U]", "c"]) == [
        PropertyGroup(title: nil, isTab: false, keys: ["a"]),
        PropertyGroup(title: "S", isTab: false, keys: ["b"]),
        PropertyGroup(title: "T", isTab: true, keys: []),
        PropertyGroup(title: "U", isTab: true, keys: ["c"]),
      ])
  }
}
