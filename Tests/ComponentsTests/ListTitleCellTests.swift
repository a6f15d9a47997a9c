import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Synchronization
import Testing

@testable import Components

/// A list's to-one cell asks its related object's title once: the cell's text is the title
/// its component shows, its value the object's key, which needs no title.
@Suite struct ListTitleCellTests {
  static let schema = """
    PRAGMA foreign_keys = OFF;
    CREATE TABLE kind (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE item (id INTEGER PRIMARY KEY, label TEXT NOT NULL,
      kind_id INTEGER REFERENCES kind (id));
    INSERT INTO kind VALUES (1, 'Fruit'), (2, 'Tool');
    INSERT INTO item VALUES (1, 'apple', 1), (2, 'hammer', 2), (3, 'pear', 1), (4, 'lost', 9);
    """

  @Test func eachRelatedObjectsTitleIsAskedOnce() throws {
    let registry = D2SContextKVC()
    try D2SKeys.expose(in: registry)
    let rules = """
      task = 'list' AND entity.name = 'Item' => displayPropertyKeys = ('label', 'kind')
      entity.name = 'Kind' => title = @countedTitle
      """
    // Without the rules' cache, which would answer a title asked twice from the first.
    let computations = RuleComputations()
    D2SComputations.register(in: computations)
    let engine = try RuleEngine(
      ruleModel: RuleModel(try RuleParser(registry: registry).parseRules(rules)),
      fallbacks: [D2SEngine.defaultRuleModel(registry: registry, computations: computations)],
      registry: registry, computations: computations, cache: false)
    let asked = Atomic<Int>(0)
    computations.register("countedTitle") { context in
      asked.add(1, ordering: .relaxed)
      return (context.object?.value(forKey: "name") as? String).map { "Kind \($0)" } ?? "?"
    }
    var base = RuleContext(engine: engine)
    base.database = try TestDatabases.sqlite(Self.schema)
    let page = try PageApplication(base: base, formatters: FormatterRegistry()).render(
      PageRequest(task: "list", entityName: "Item"))
    #expect(page.contains("Kind Fruit") && page.contains("Kind Tool"), "\(page)")
    // The key 9 leads to no row: shown as stored, no title asked.
    #expect(page.contains(#/lost +9\n/#), "\(page)")
    // Two kinds on the page: two titles, not one for the component and one for the value.
    #expect(asked.load(ordering: .relaxed) == 2)
  }
}
