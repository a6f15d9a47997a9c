import D2SApplication
import Testing

/// The one place a command line's database target is read: an SQLite file, or PostgreSQL.
@Suite struct DatabaseLocationTests {
  @Test func pathsAreSQLiteFiles() {
    #expect(DatabaseLocation("/tmp/d2s/sakila.db") == .sqlite("/tmp/d2s/sakila.db"))
    #expect(DatabaseLocation("sakila.db") == .sqlite("sakila.db"))
    #expect(DatabaseLocation("données/é.db") == .sqlite("données/é.db"))
    #expect(DatabaseLocation("") == .sqlite(""))
  }

  @Test func theSQLitePrefixWinsOverEverySign() {
    #expect(DatabaseLocation("sqlite:/tmp/a=b.db?mode=ro") == .sqlite("sqlite:/tmp/a=b.db?mode=ro"))
  }

  @Test func urlsAndConninfoStringsArePostgreSQL() {
    #expect(DatabaseLocation("postgresql://u@h/db") == .postgreSQL("postgresql://u@h/db"))
    #expect(DatabaseLocation("postgres://h/db") == .postgreSQL("postgres://h/db"))
    #expect(DatabaseLocation("host=h dbname=d") == .postgreSQL("host=h dbname=d"))
    #expect(DatabaseLocation("dbname=d") == .postgreSQL("dbname=d"))
    // An equals sign anywhere, even before a combining mark, reads as conninfo: a file whose
    // name has one is given as sqlite:PATH.
    #expect(DatabaseLocation("a=\u{301}.db") == .postgreSQL("a=\u{301}.db"))
    #expect(DatabaseLocation("./odd=name.db").isPostgreSQL)
  }
}
