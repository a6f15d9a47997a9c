import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import SQLiteAdaptor
import Testing

@testable import Components

/// Answers that read the database (`isEntityReadOnly` reads whether it may be written) are
/// kept per connection: asked again on the same connection they come from the rule cache, and
/// a read-only connection to the same file never gets a writable one's answer, nor the other
/// way round, through one engine.
@Suite struct DatabaseAnswersTests {
  @Test func eachConnectionKeepsItsOwnAnswers() throws {
    let path = try TestDatabases.sqliteFile(
      "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);", named: "answers")
    let writable = try Database(adaptor: SQLiteAdaptor(path: path))
    let readOnly = try Database(
      adaptor: SQLiteAdaptor(path: path, readOnly: true), model: writable.model)
    let registry = D2SContextKVC()
    try D2SKeys.expose(in: registry)
    let base = RuleContext(engine: try D2SEngine.make(registry: registry))
    func isReadOnly(_ database: Database) -> Bool {
      var context = base
      context.database = database
      context.entity = database.model.entity(named: "Note")
      return context.isEntityReadOnly
    }
    #expect(isReadOnly(writable) == false)
    #expect(isReadOnly(readOnly) == true)
    let missed = base.engine.cacheStatistics.misses
    for _ in 0..<3 {
      #expect(isReadOnly(writable) == false)
      #expect(isReadOnly(readOnly) == true)
    }
    #expect(base.engine.cacheStatistics.misses == missed, "asked again, every answer is kept")
    // Another connection, writable too: its own answers, worked out for it.
    let other = Database(adaptor: try SQLiteAdaptor(path: path), model: writable.model)
    #expect(isReadOnly(other) == false)
    #expect(base.engine.cacheStatistics.misses > missed)
  }
}
