import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Synchronization
import Testing

@testable import Components

/// A formatter that numbers the texts it makes: a text made again reads another number.
private final class NumberingFormatter: ValueFormatter {
  let made = Atomic<Int>(0)

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    let number = made.add(1, ordering: .relaxed).newValue
    return "\(value.storedText())#\(number)"
  }

  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    .string(text)
  }
}

/// A connection keeps a list's columns from one page to the next (``ListColumns/ColumnSet``),
/// with their formatters' texts, and nothing of a page goes with them: each page's cells read
/// its own user and show the to-one titles the database holds when it is made.
@Suite struct KeptListColumnsTests {
  /// The fixture: items of kinds, and two users.
  static let schema = """
    CREATE TABLE kind (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT NOT NULL, weight INTEGER,
      kind_id INTEGER REFERENCES kind (id));
    CREATE TABLE person (id INTEGER PRIMARY KEY, username TEXT NOT NULL);
    INSERT INTO kind VALUES (1, 'Fruit'), (2, 'Tool');
    INSERT INTO item VALUES (1, 'apple', 150, 1), (2, 'hammer', 700, 2), (3, 'pear', 150, 1);
    INSERT INTO person VALUES (1, 'mike'), (2, 'jon');
    """

  /// An application over the fixture with `rules` (and the demo's list columns for items),
  /// its database, and its formatters.
  func application(_ rules: String) throws -> (PageApplication, Database, FormatterRegistry) {
    let registry = D2SContextKVC()
    try D2SKeys.expose(in: registry)
    let all =
      "task = 'list' AND entity.name = 'Item' => displayPropertyKeys = ('label', 'weight', 'kind')\n"
      + rules
    let engine = try D2SEngine.make(
      rules: RuleModel(try RuleParser(registry: registry).parseRules(all)), registry: registry)
    var base = RuleContext(engine: engine)
    let database = try TestDatabases.sqlite(Self.schema)
    base.database = database
    let formatters = FormatterRegistry()
    return (PageApplication(base: base, formatters: formatters), database, formatters)
  }

  @Test func eachPageCellsReadItsOwnUser() throws {
    // Read per cell (the rule tests the object first), so the columns' plan does not depend
    // on the user: the pages share the plan and its kept columns, not the user.
    let (application, database, formatters) = try application(
      """
      entity.name = 'Item' AND propertyKey = 'label' AND object.id = 1 \
      AND user.username = 'mike' => formatter = 'numbered'
      """)
    formatters.register(NumberingFormatter(), as: "numbered")
    let people = try database.fetch(FetchSpecification(entityName: "Person"))
    let mike = try #require(people.first { $0.value(forKey: "username") as? String == "mike" })
    let jon = try #require(people.first { $0.value(forKey: "username") as? String == "jon" })
    func list(_ user: DatabaseObject) throws -> String {
      try application.render(PageRequest(task: "list", entityName: "Item", user: user))
    }
    for _ in 0..<2 {
      let mikes = try list(mike)
      #expect(mikes.contains("apple#"), "\(mikes)")
      let jons = try list(jon)
      #expect(jons.contains("apple") && !jons.contains("apple#"), "\(jons)")
    }
  }

  @Test func eachPageShowsTheTitlesTheDatabaseHoldsThen() throws {
    let (application, database, _) = try application("")
    func list() throws -> String {
      try application.render(PageRequest(task: "list", entityName: "Item"))
    }
    #expect(try list().contains("Fruit"))
    try database.adaptor.execute(SQLStatement(raw: "UPDATE kind SET name = 'Produce' WHERE id = 1"))
    let second = try list()
    #expect(second.contains("Produce") && !second.contains("Fruit"), "\(second)")
    try database.adaptor.execute(SQLStatement(raw: "UPDATE kind SET name = 'Fruit' WHERE id = 1"))
    let third = try list()
    #expect(third.contains("Fruit") && !third.contains("Produce"), "\(third)")
  }

  @Test func aFormattersTextsAreKeptUntilItIsRegisteredAgain() throws {
    let (application, _, formatters) = try application(
      "entity.name = 'Item' AND propertyKey = 'weight' => formatter = 'numbered'")
    let numbering = NumberingFormatter()
    formatters.register(numbering, as: "numbered")
    func list() throws -> String {
      try application.render(PageRequest(task: "list", entityName: "Item"))
    }
    // Two distinct weights: asked once for each, for this page and the next.
    let first = try list()
    #expect(numbering.made.load(ordering: .relaxed) == 2)
    #expect(first.contains("150#1") && first.contains("700#2"), "\(first)")
    #expect(try list() == first)
    #expect(numbering.made.load(ordering: .relaxed) == 2)
    // Registered again: its new texts.
    let again = NumberingFormatter()
    formatters.register(again, as: "numbered")
    let third = try list()
    #expect(again.made.load(ordering: .relaxed) == 2)
    #expect(third == first)
    #expect(numbering.made.load(ordering: .relaxed) == 2)
  }

  @Test func aListOfOtherColumnsHasItsOwn() throws {
    let (application, _, _) = try application("")
    func list(_ columns: [String]) throws -> String {
      try application.render(
        PageRequest(task: "list", entityName: "Item", list: ListRequest(columns: columns)))
    }
    for _ in 0..<2 {
      let plain = try list([])
      #expect(plain.contains("Weight") && !plain.contains("Kind Id"), "\(plain)")
      let more = try list(["kindId"])
      #expect(more.contains("Kind Id") && more.contains("Weight"), "\(more)")
    }
  }
}
