import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

/// `model` follows `database` however the database is set: the typed setter sets both; set
/// or removed by name (the REPL's `unset database`, `setValue(_:forKeyNamed:)`), the model set
/// beside the old database is removed and the builtin rule reads the new one's.
@Suite struct DatabaseModelKeyTests {
  func context() throws -> (RuleContext, Database, Database) {
    let registry = D2SContextKVC()
    try D2SKeys.expose(in: registry)
    var context = RuleContext(engine: try D2SEngine.make(registry: registry))
    let notes = try TestDatabases.sqlite("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);")
    let tags = try TestDatabases.sqlite(
      "CREATE TABLE tag (id INTEGER PRIMARY KEY); CREATE TABLE label (id INTEGER PRIMARY KEY);")
    context.database = notes
    return (context, notes, tags)
  }

  @Test func theModelIsTheDatabasesWhicheverWayItIsSet() throws {
    var (context, notes, tags) = try context()
    #expect(context.model === notes.model)
    try context.setValue(tags, forKeyNamed: "database")
    #expect(context.model === tags.model)
    #expect(context.model.entities.map(\.name).sorted() == ["Label", "Tag"])
    try context.removeValue(forKeyNamed: "database")
    #expect(context.database == nil)
    #expect(context.model.entities.isEmpty, "no database, no model")
    context.database = notes
    #expect(context.model === notes.model)
  }
}
