import D2SModel
import Testing

@testable import SQLiteAdaptor

/// SQLite's errors by what they mean: a statement beyond SQLite's limits is one the database
/// cannot do (`unsupported`, a bad request on the web); any other SQL error is not (`other`:
/// a view over a table dropped since, a virtual table whose module is missing).
@Suite struct SQLiteErrorCodeTests {
  func code(of sql: String) throws -> DatabaseError.Code? {
    let adaptor = try SQLiteAdaptor(path: ":memory:")
    do {
      try adaptor.query(SQLStatement(raw: sql), columns: [nil]) { _ in }
    } catch let error as DatabaseError {
      return error.code
    }
    return nil
  }

  @Test func anErrorOfTheSQLIsNotALimit() throws {
    #expect(try code(of: "SELECT x FROM nowhere") == .other)
    #expect(try code(of: "SELECT x FROM pragma_table_xinfo('nowhere') JOIN nowhere") == .other)
  }

  @Test func aStatementBeyondSQLitesLimitsIsUnsupported() throws {
    let deep = String(repeating: "(", count: 1_100) + "1" + String(repeating: ")", count: 1_100)
    #expect(try code(of: "SELECT " + deep) == .unsupported)
  }
}
