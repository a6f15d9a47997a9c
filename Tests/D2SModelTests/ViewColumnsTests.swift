import D2SModel
import D2STesting
import EnvKeys
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SModel

/// An SQLite file's views are named when it is opened, and their columns read (SQLite compiles
/// each view to name them) when their entity is first asked for: the same attributes as read
/// at once, and a view SQLite can no longer compile leaves the database usable.
@Suite struct ViewColumnsTests {
  static let schema = """
    CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE,
      score NUMERIC(5,2) DEFAULT 1.5, initials TEXT GENERATED ALWAYS AS (substr(name, 1, 1)));
    CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL,
      author_id INTEGER NOT NULL REFERENCES author (id));
    INSERT INTO author (id, name, born) VALUES (1, 'Ann', '1970-01-02');
    INSERT INTO book VALUES (1, 'Tides', 1);
    CREATE VIEW "book list" AS SELECT b.id AS book_id, b.title, a.name AS "author name",
      a.score, a.initials FROM book b JOIN author a ON a.id = b.author_id;
    """
  /// A view over a table dropped since: SQLite cannot compile it any more.
  static let broken = """
    CREATE TABLE gone (id INTEGER PRIMARY KEY, x TEXT);
    CREATE VIEW broken AS SELECT x FROM gone;
    DROP TABLE gone;
    """

  /// An attribute as the model gives it, for comparing two models.
  static func described(_ entity: Entity?) -> [String] {
    (entity?.attributes ?? []).map {
      "\($0.name) \($0.columnName) \($0.externalType) \($0.valueType) \($0.allowsNull) \($0.defaultValue ?? "-") \($0.width ?? 0) \($0.scale ?? 0) \($0.isGenerated)"
    }
  }

  @Test func aFilesViewsHaveTheColumnsAnInMemoryDatabaseReadsAtOnce() throws {
    let path = try TestDatabases.sqliteFile(Self.schema, named: "books")
    let file = try Database(adaptor: SQLiteAdaptor(path: path)).model
    let view = try #require(file.entity(named: "BookList"))
    #expect(view.isView && view.isReadOnly)
    #expect(!view.hasDetails, "named, its columns not read")
    let memory = try TestDatabases.sqlite(Self.schema).model
    #expect(Self.described(view) == Self.described(memory.entity(named: "BookList")))
    #expect(view.attributes.map(\.name) == ["bookId", "title", "authorName", "score", "initials"])
    #expect(view.relationships.isEmpty && view.primaryKeyAttributeNames.isEmpty)
    // The tables' relationships are as before.
    #expect(file.entity(named: "Book")?.relationship(named: "author") != nil)
    #expect(file.entity(named: "Author")?.relationship(named: "books")?.isToMany == true)
  }

  /// A table's foreign key to a view (SQLite accepts the declaration) still gives both
  /// relationships, as an in-memory database's model has them.
  @Test func aForeignKeyToAViewRelatesThemAsInMemory() throws {
    let schema =
      Self.schema
      + "\nCREATE TABLE note (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES \"book list\" (book_id));"
    let file = try Database(
      adaptor: SQLiteAdaptor(path: TestDatabases.sqliteFile(schema, named: "notes"))
    ).model
    let memory = try TestDatabases.sqlite(schema).model
    for name in ["Note", "BookList", "Book", "Author"] {
      #expect(
        file.entity(named: name)?.relationships.map(\.name)
          == memory.entity(named: name)?.relationships.map(\.name), "\(name)")
      #expect(
        Self.described(file.entity(named: name)) == Self.described(memory.entity(named: name)))
    }
    #expect(file.entity(named: "Note")?.relationship(named: "book") != nil)
  }

  @Test(arguments: ["file", "memory"])
  func aViewSQLiteCannotCompileLeavesTheDatabaseUsable(kind: String) throws {
    let schema = Self.schema + "\n" + Self.broken
    let database =
      kind == "file"
      ? try Database(
        adaptor: SQLiteAdaptor(path: TestDatabases.sqliteFile(schema, named: "broken")))
      : try TestDatabases.sqlite(schema)
    let broken = try #require(database.model.entity(named: "Broken"))
    let log = CapturedLog()
    withDependencies {
      $0.sqlLogger = log.logger
    } operation: {
      #expect(broken.isView && broken.attributes.isEmpty)
    }
    // A file's view, read when first asked for, says why it has no columns.
    let warned = log.lines.withLock { $0 }.filter { $0.hasPrefix("warning: ") }
    #expect(warned.count == (kind == "file" ? 1 : 0), "\(warned)")
    #expect(
      kind == "memory" || warned.first?.contains("cannot read the columns of view broken") == true)
    #expect(database.model.entity(named: "BookList")?.attributes.count == 5)
    let book = try #require(try database.fetchObject("Book", primaryKey: [.int(1)]))
    #expect(book.value(forKeyPath: "author.name") as? String == "Ann")
    // Reading it says what is wrong with it.
    #expect {
      _ = try database.fetch(FetchSpecification(entityName: "Broken"))
    } throws: { error in
      "\(error)".contains("no such table: main.gone")
    }
  }
}
