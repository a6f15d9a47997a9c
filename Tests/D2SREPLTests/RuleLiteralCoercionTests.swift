import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// A rule compares an object's value with a constant as a fetch does: `object.active = 1`
/// holds for a BOOLEAN column's true (as `list Thing where active = 1` finds it), and a date
/// column compares with a date written as text (`object.due < '2024-01-01'`). Before, both
/// were silently false: a rule forbidding an edit by them never applied.
@Suite struct RuleLiteralCoercionTests {
  /// SQLite, and PostgreSQL when a test server is given.
  static let kinds = TestServer.available.contains(.postgresql) ? [false, true] : [false]

  static func fixture(_ postgres: Bool) -> String {
    let (bool, date, stamp) =
      postgres ? ("boolean", "date", "timestamp") : ("BOOLEAN", "DATE", "TIMESTAMP")
    let (yes, no) = postgres ? ("true", "false") : ("1", "0")
    return """
      CREATE TABLE thing (id integer PRIMARY KEY, name text, active \(bool), due \(date),
        at \(stamp));
      INSERT INTO thing VALUES
        (1, 'one', \(yes), '2023-06-01', '2024-01-02 10:00:00'),
        (2, 'two', \(no), '2024-06-01', '2024-01-02 10:00:01'),
        (3, 'three', \(yes), '2025-06-01', NULL);
      """
  }

  static func session(_ postgres: Bool) throws -> REPLSession {
    let target =
      postgres
      ? try PostgresSakila.database(from: fixture(postgres), prefix: "coercion")
      : try TestDatabases.sqliteFile(fixture(postgres), named: "coercion")
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(target)")
    return session
  }

  static func title(_ session: REPLSession, _ id: Int) throws -> String {
    _ = try session.run("inspect Thing \(id)")
    return try session.run("show displayNameForEntity")
  }

  @Test(arguments: Self.kinds)
  func aBooleanEqualsOneAsInAFetch(postgres: Bool) throws {
    let session = try Self.session(postgres)
    #expect(try session.run("list Thing where active = 1").contains("2 Thing "))
    _ = try session.run("rule object.active = 1 => displayNameForEntity = 'ON' ; high")
    #expect(try Self.title(session, 1).contains("'ON'"))
    #expect(!(try Self.title(session, 2)).contains("'ON'"))
    #expect(try Self.title(session, 3).contains("'ON'"))
    _ = try session.run("rule object.active = 0 => displayNameForEntity = 'OFF' ; high")
    #expect(try Self.title(session, 2).contains("'OFF'"))
  }

  @Test(arguments: Self.kinds)
  func aDateComparesWithItsText(postgres: Bool) throws {
    let session = try Self.session(postgres)
    #expect(try session.run("list Thing where due < '2024-01-01'").contains("1 Thing "))
    _ = try session.run("rule object.due < '2024-01-01' => isObjectEditable = false ; high")
    #expect {
      try session.run("edit Thing 1")
    } throws: { "\($0)".contains("may not be edited") }
    _ = try session.run("edit Thing 2")
    _ = try session.run("revert")
    // An equality, which the rule index looks up by value.
    _ = try session.run(
      "rule object.at = '2024-01-02 10:00:00' => displayNameForEntity = 'AT' ; high")
    #expect(try Self.title(session, 1).contains("'AT'"))
    #expect(!(try Self.title(session, 2)).contains("'AT'"))
    #expect(!(try Self.title(session, 3)).contains("'AT'"))
  }
}
