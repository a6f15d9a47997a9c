import D2STesting
import Dispatch
import EnvKeys
import Foundation
import Synchronization
import Testing

@testable import D2SModel
@testable import SQLiteAdaptor

/// An SQLite file is opened with one statement naming its tables and views; their columns,
/// keys and full-text indexes are read when the model first needs them: the same model as
/// an in-memory database reads at once, read on the opening connection when it is free and
/// on a connection of its own when another statement holds it.
@Suite struct TableDetailsTests {
  /// What a real file holds: a composite foreign key, `REFERENCES t` without columns, a table
  /// without a key, a WITHOUT ROWID table, a generated column, names with spaces, an FTS5
  /// index over a table (with its shadow tables), a view.
  static let schema = """
    CREATE TABLE "shelf unit" (room TEXT, bay INTEGER, label TEXT, PRIMARY KEY (room, bay));
    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
      initials TEXT GENERATED ALWAYS AS (substr(name, 1, 1)) VIRTUAL);
    CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, blurb TEXT,
      author_id INTEGER NOT NULL REFERENCES author, room TEXT, bay INTEGER,
      FOREIGN KEY (room, bay) REFERENCES "shelf unit" (room, bay));
    CREATE TABLE tag (book_id INTEGER REFERENCES book (id), word TEXT,
      PRIMARY KEY (book_id, word)) WITHOUT ROWID;
    CREATE TABLE loose (note TEXT);
    CREATE VIRTUAL TABLE book_fts USING fts5(title, blurb, content='book');
    CREATE VIEW titles AS SELECT b.title, a.name FROM book b JOIN author a ON a.id = b.author_id;
    INSERT INTO author (id, name) VALUES (1, 'Ann');
    INSERT INTO book (id, title, author_id) VALUES (1, 'Tides', 1);
    """

  /// An entity as the model gives it, for comparing two models.
  static func described(_ entity: Entity) -> [String] {
    [
      "\(entity.name) \(entity.externalName) view \(entity.isView) internal \(entity.isInternal)",
      "key \(entity.primaryKeyAttributeNames)",
      "full text \(String(describing: entity.fullTextIndex))",
    ]
      + entity.attributes.map {
        "\($0.name) \($0.columnName) \($0.externalType) \($0.valueType) \($0.allowsNull) \($0.defaultValue ?? "-") \($0.isGenerated) \($0.isAutoIncrement)"
      }
      + entity.relationships.map {
        "\($0.name) → \($0.destinationName) \($0.joins.map { "\($0.source)=\($0.destination)" }) \($0.isToMany)"
      }
  }

  @Test func aFileIsOpenedByNamingItsTablesAndReadsTheRestWhenFirstNeeded() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "details")
    let adaptor = try SQLiteAdaptor(path: path)
    let model = try Database(adaptor: adaptor).model
    #expect(adaptor.statementCount == 1, "one statement names the tables and views")
    #expect(model.entities.allSatisfy { !$0.hasDetails })
    #expect(model.entity(named: "BookFtsData")?.isInternal == true)
    #expect(model.entity(named: "Titles")?.isView == true)
    #expect(model.entities.allSatisfy { !$0.hasDetails }, "names, kinds, internal: no columns")

    let book = try #require(model.entity(named: "Book"))
    #expect(
      book.fullTextIndex == FullTextIndex(.fts5(table: "book_fts"), columns: ["title", "blurb"]))
    // The tables' columns, their foreign keys, and the key `REFERENCES author` means.
    #expect(adaptor.statementCount == 4)
    let memory = try TestDatabases.sqlite(Self.schema).model
    #expect(model.entities.map(\.name) == memory.entities.map(\.name))
    for (file, read) in zip(model.entities, memory.entities) {
      #expect(Self.described(file) == Self.described(read))
    }
    #expect(book.relationship(named: "shelfUnit")?.joins.count == 2)
    #expect(model.entity(named: "Loose")?.primaryKeyAttributeNames == ["rowid"])
  }

  /// Asked for first inside another statement's rows on the same thread, the details are read
  /// on the opening connection beside it; on another thread, which must not wait for that
  /// connection, on a connection of their own. Each within 30 seconds: a wait for the busy
  /// connection would wait for ever.
  @Test(arguments: ["same thread", "other thread"])
  func detailsFirstAskedForInsideAnotherStatementsRows(asker: String) throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "busy")
    let adaptor = try SQLiteAdaptor(path: path)
    let model = try Database(adaptor: adaptor).model
    let book = try #require(model.entity(named: "Book"))
    let names = Mutex<[String]>([])
    let statements = Mutex<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      defer { done.signal() }
      try? adaptor.query(
        SQLStatement(
          raw:
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x FROM n"
        ), columns: [nil]
      ) { _ in
        guard names.withLock({ $0.isEmpty }) else { return }
        statements.withLock { $0.append(adaptor.statementCount) }
        if asker == "same thread" {
          names.withLock { $0 = book.attributes.map(\.name) }
        } else {
          let asked = DispatchSemaphore(value: 0)
          DispatchQueue.global().async {
            names.withLock { $0 = book.attributes.map(\.name) }
            asked.signal()
          }
          _ = asked.wait(timeout: .now() + .seconds(30))
        }
        statements.withLock { $0.append(adaptor.statementCount) }
      }
    }
    #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
    #expect(names.withLock { $0 } == ["id", "title", "blurb", "authorId", "room", "bay"])
    let counted = statements.withLock { $0 }
    #expect(counted.count == 2)
    // On the opening connection, three statements; on one of its own, none of this one's.
    #expect(counted.last.map { $0 - counted[0] } == (asker == "same thread" ? 3 : 0))
  }

  /// A table dropped by another connection after the file was opened keeps its entity, with
  /// no columns; the others are read as they are.
  @Test func aTableDroppedSinceTheOpenHasNoColumns() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "dropped")
    let model = try Database(adaptor: SQLiteAdaptor(path: path)).model
    try SQLiteAdaptor(path: path).execute(SQLStatement(raw: "DROP TABLE loose"))
    #expect(model.entity(named: "Loose")?.attributes.isEmpty == true)
    #expect(model.entity(named: "Author")?.attributes.map(\.name) == ["id", "name", "initials"])
  }

  /// A virtual table whose module this SQLite does not have (written into the schema as a
  /// file from elsewhere holds it) has no columns, said as a warning; the other tables are
  /// read as they are. (Before, the file could not be opened at all.)
  @Test func aTableSQLiteCannotDescribeHasNoColumnsAndTheOthersAreRead() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "module")
    try SQLiteAdaptor(path: path).executeScript(
      """
      PRAGMA writable_schema = ON;
      INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql)
        VALUES ('table', 'vectors', 'vectors', 0,
          'CREATE VIRTUAL TABLE vectors USING nosuchmodule(embedding)');
      PRAGMA writable_schema = OFF;
      """)
    let log = CapturedLog()
    let model = try withDependencies {
      $0.sqlLogger = log.logger
    } operation: {
      let model = try Database(adaptor: SQLiteAdaptor(path: path)).model
      _ = model.entity(named: "Book")?.attributes
      return model
    }
    #expect(model.entity(named: "Vectors")?.attributes.isEmpty == true)
    #expect(model.entity(named: "Book")?.relationship(named: "author") != nil)
    let memory = try TestDatabases.sqlite(Self.schema).model
    for read in memory.entities {
      let file = try #require(model.entity(named: read.name))
      #expect(Self.described(file) == Self.described(read))
    }
    let warned = log.lines.withLock { $0 }.filter { $0.hasPrefix("warning: ") }
    #expect(
      warned.contains { $0.contains("cannot read table vectors") },
      "\(warned) \(log.lines.withLock { $0 })")
  }

  /// Details that cannot be read now (another connection holds the file's lock past the busy
  /// timeout) leave the entities without columns for that ask, and are read again at a later
  /// one (a second on at the earliest): they are not kept empty.
  @Test func detailsThatCannotBeReadNowAreReadAtALaterAsk() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "locked")
    let model = try Database(adaptor: SQLiteAdaptor(path: path)).model
    let book = try #require(model.entity(named: "Book"))
    let holder = try SQLiteAdaptor(path: path)
    try holder.executeScript("BEGIN EXCLUSIVE")
    let log = CapturedLog()
    withDependencies {
      $0.sqlLogger = log.logger
    } operation: {
      #expect(book.attributes.isEmpty, "the lock is held")
    }
    try holder.executeScript("COMMIT")
    #expect(log.lines.withLock { $0 }.contains { $0.contains("cannot read the tables' columns") })
    Thread.sleep(forTimeInterval: 1.2)
    #expect(book.attributes.map(\.name) == ["id", "title", "blurb", "authorId", "room", "bay"])
    #expect(model.entity(named: "Author")?.relationship(named: "books") != nil)
  }

  /// A view's columns that cannot be read now (the file locked past the busy timeout) are read
  /// again at a later ask, not kept empty as a view SQLite cannot compile is.
  @Test func aViewsColumnsThatCannotBeReadNowAreReadAtALaterAsk() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "lockedview")
    let model = try Database(adaptor: SQLiteAdaptor(path: path)).model
    #expect(model.entity(named: "Book")?.attributes.isEmpty == false)
    let titles = try #require(model.entity(named: "Titles"))
    let holder = try SQLiteAdaptor(path: path)
    try holder.executeScript("BEGIN EXCLUSIVE")
    withDependencies {
      $0.sqlLogger = CapturedLog().logger
    } operation: {
      #expect(titles.attributes.isEmpty, "the lock is held")
    }
    try holder.executeScript("COMMIT")
    Thread.sleep(forTimeInterval: 1.2)
    #expect(titles.attributes.map(\.name) == ["title", "name"])
  }

  /// First asked for inside a write transaction on the opening connection, the details are
  /// read on the other connection: a column added in it and rolled back is not in the model.
  @Test func detailsAreNotReadInsideTheOpenersWriteTransaction() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "writing")
    let adaptor = try SQLiteAdaptor(path: path)
    let model = try Database(adaptor: adaptor).model
    struct Undo: Error {}
    #expect(throws: Undo.self) {
      try adaptor.transaction {
        try adaptor.execute(SQLStatement(raw: "ALTER TABLE loose ADD COLUMN passing TEXT"))
        #expect(model.entity(named: "Loose")?.attributes.map(\.name) == ["rowid", "note"])
        throw Undo()
      }
    }
    #expect(model.entity(named: "Loose")?.attributes.map(\.name) == ["rowid", "note"])
  }
}
