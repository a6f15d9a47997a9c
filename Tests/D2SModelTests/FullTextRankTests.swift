import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SModel

/// A search through an FTS5 table reads its matches' ranks once, by a join, not by a subquery
/// per row: that ran the whole search again for every match (a time growing with the square
/// of their number; 20,000 rows holding a common word took longer than a page may). The
/// matches still come best first.
@Suite struct FullTextRankTests {
  @Test func ranksAreJoinedOnceAndOrderTheMatches() throws {
    let path = try TestDatabases.sqliteFile(
      """
      CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
      INSERT INTO note VALUES (1, 'word'), (2, 'word word word other'), (3, 'nothing'),
        (4, 'word word word word'), (5, 'a word among many other words here');
      CREATE VIRTUAL TABLE note_fts USING fts5(body, content='note');
      INSERT INTO note_fts(note_fts) VALUES ('rebuild');
      """, named: "fulltextrank")
    let database = try Database(adaptor: try SQLiteAdaptor(path: path))
    let search = FullTextSearch(words: ["word"])
    var specification = FetchSpecification(entityName: "Note")
    specification.fullText = search
    var builder = database.builder(for: try #require(database.model.entity(named: "Note")))
    let statement = try builder.select(specification)
    var plan: [String] = []
    try database.adaptor.query(
      SQLStatement(raw: "EXPLAIN QUERY PLAN " + statement.sql, statement.bindings),
      columns: [nil, nil, nil, nil]
    ) { plan.append($0[3].stringValue ?? "") }
    #expect(!plan.contains { $0.contains("CORRELATED") }, "\(plan)")
    let ids = try database.fetch(specification).compactMap { $0.primaryKeyValues.first?.intValue }
    // In bm25's order, as SQLite gives it for the FTS5 table alone.
    var ranked: [Int] = []
    try database.adaptor.query(
      SQLStatement(
        raw: "SELECT rowid FROM note_fts WHERE note_fts MATCH 'word' ORDER BY bm25(note_fts)"),
      columns: [nil]
    ) { ranked.append($0[0].intValue ?? 0) }
    #expect(Set(ids) == [1, 2, 4, 5])
    #expect(ids == ranked, "\(ids) against \(ranked)")
  }
}
