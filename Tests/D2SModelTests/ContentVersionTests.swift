import D2SModel
import D2STesting
import SQLiteAdaptor
import Testing

/// SQLite's content version: unchanged by reads, changed by another connection's commit and
/// by this connection's own writes, absent inside a transaction.
@Suite struct ContentVersionTests {
  static let schema = """
    CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
    INSERT INTO note VALUES (1, 'first');
    """

  @Test func readsLeaveTheVersionAndWritesChangeIt() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "versions")
    let reader = try SQLiteAdaptor(path: path)
    let writer = try SQLiteAdaptor(path: path)
    let start = try #require(try reader.contentVersion())
    try reader.query(SQLStatement(raw: "SELECT text FROM note"), columns: [nil]) { _ in }
    #expect(try reader.contentVersion() == start)

    try writer.execute(SQLStatement(raw: "UPDATE note SET text = 'second' WHERE id = 1"))
    let afterOther = try #require(try reader.contentVersion())
    #expect(afterOther != start)
    #expect(try reader.contentVersion() == afterOther)

    try reader.execute(SQLStatement(raw: "UPDATE note SET text = 'third' WHERE id = 1"))
    let afterOwn = try #require(try reader.contentVersion())
    #expect(afterOwn != afterOther)

    // A write that changes no row leaves the contents, and the version, as they were.
    try reader.execute(SQLStatement(raw: "UPDATE note SET text = 'x' WHERE id = 2"))
    #expect(try reader.contentVersion() == afterOwn)
  }

  @Test func thereIsNoVersionInsideATransaction() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "versions")
    let adaptor = try SQLiteAdaptor(path: path)
    let inside = try adaptor.transaction { try adaptor.contentVersion() }
    #expect(inside == nil)
    #expect(try adaptor.contentVersion() != nil)
  }
}
