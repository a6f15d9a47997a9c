import Testing

@testable import SQLiteAdaptor

/// Which table an FTS5 table indexes, read from its declaration as Datasette reads it.
@Suite struct FTS5TableTests {
  @Test func contentOrNameSaysWhichTable() {
    let quoted = FTS5Table(
      name: "docs", sql: "CREATE VIRTUAL TABLE docs USING fts5(title, content='film')")
    #expect(quoted?.indexes("film") == true)
    let bracketed = FTS5Table(
      name: "x", sql: "create virtual table x using FTS5 (a, content=[film])")
    #expect(bracketed?.indexes("film") == true)
    let named = FTS5Table(name: "film_fts", sql: "CREATE VIRTUAL TABLE film_fts USING fts5(title)")
    #expect(named?.indexes("film") == true && named?.indexes("films") == false)
  }

  @Test func otherModulesAndOtherRowidsAreNoIndexOfATable() {
    #expect(FTS5Table(name: "v", sql: "CREATE VIRTUAL TABLE v USING fts5vocab(docs, 'row')") == nil)
    #expect(FTS5Table(name: "f", sql: "CREATE VIRTUAL TABLE f USING fts4(title)") == nil)
    #expect(
      FTS5Table(
        name: "f", sql: "CREATE VIRTUAL TABLE f USING fts5(a, content='t', content_rowid='id')")
        == nil)
    #expect(FTS5Table(name: "f", sql: "CREATE VIRTUAL TABLE f USING fts5(a, content='')") == nil)
    // A name whose lower case is longer than itself does not shift where the module is read.
    #expect(
      FTS5Table(name: "İİİ_fts", sql: "CREATE VIRTUAL TABLE \"İİİ_fts\" USING fts5(a)")?.indexes(
        "İİİ")
        == true)
  }
}
