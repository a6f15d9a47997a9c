import D2SModel
import D2STesting
import SQLiteAdaptor
import Testing

/// `reading`: a page's statements in one SQLite read transaction. They read one snapshot; a
/// write inside still commits; a failure leaves no transaction open; the bracket is not
/// counted as statements.
@Suite struct ReadTransactionTests {
  static let schema = """
    PRAGMA journal_mode = WAL;
    CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
    INSERT INTO note VALUES (1, 'first');
    """

  private static func count(_ adaptor: SQLiteAdaptor) throws -> Int {
    var count = -1
    try adaptor.query(SQLStatement(raw: "SELECT count(*) FROM note"), columns: [nil]) {
      count = $0.first?.intValue ?? -1
    }
    return count
  }

  private static func insert(_ adaptor: SQLiteAdaptor, _ id: Int) throws {
    try adaptor.execute(
      SQLStatement(raw: "INSERT INTO note VALUES (?, 'more')", [.int(id)]))
  }

  @Test func theStatementsInsideReadOneSnapshot() throws {
    // WAL: another connection commits while the read is open (with a rollback journal it
    // would wait for the read's lock).
    let path = try TestDatabases.sqliteFile(Self.schema, named: "reading")
    let reader = try SQLiteAdaptor(path: path)
    let writer = try SQLiteAdaptor(path: path)
    let seen = try reader.reading {
      let before = try Self.count(reader)
      try Self.insert(writer, 2)
      return (before, try Self.count(reader))
    }
    #expect(seen == (1, 1))
    // Outside it, each statement reads the latest.
    #expect(try Self.count(reader) == 2)
    try Self.insert(writer, 3)
    #expect(try Self.count(reader) == 3)
  }

  @Test func aWriteInsideEndsTheReadAndCommits() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "reading")
    let adaptor = try SQLiteAdaptor(path: path)
    let other = try SQLiteAdaptor(path: path)
    try adaptor.reading {
      #expect(try Self.count(adaptor) == 1)
      try adaptor.transaction { try Self.insert(adaptor, 2) }
      #expect(try Self.count(other) == 2)
      // What is read after the write reads on, in statements of their own.
      #expect(try Self.count(adaptor) == 2)
    }
    #expect(try Self.count(other) == 2)
  }

  @Test func aFailureInsideLeavesNoTransactionOpen() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "reading")
    let adaptor = try SQLiteAdaptor(path: path)
    let writer = try SQLiteAdaptor(path: path)
    #expect(throws: DatabaseError.self) {
      try adaptor.reading {
        _ = try Self.count(adaptor)
        try adaptor.execute(SQLStatement(raw: "SELECT * FROM no_such_table"))
      }
    }
    // No snapshot is held: another connection's commit is seen at once.
    try Self.insert(writer, 2)
    #expect(try Self.count(adaptor) == 2)
    // And the next read opens its own.
    let inner = try adaptor.reading { try adaptor.reading { try Self.count(adaptor) } }
    #expect(inner == 2)
  }

  @Test func theBracketIsNotCountedAsStatements() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "reading")
    let adaptor = try SQLiteAdaptor(path: path)
    let before = adaptor.statementCount
    _ = try adaptor.reading { try Self.count(adaptor) }
    #expect(adaptor.statementCount == before + 1)
    // The content version is read inside as outside.
    #expect(try adaptor.reading { try adaptor.contentVersion() } != nil)
  }
}
