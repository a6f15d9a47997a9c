import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// Session behaviours of SPEC §7 asserted one by one: names, paging, `render`, `show` of key
/// paths, leaving an edit, and errors that change nothing.
@Suite struct SessionTests {
  func session() throws -> (REPLSession, String) {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(path)")
    return (session, path)
  }

  func error(_ session: REPLSession, _ line: String) -> String {
    do {
      _ = try session.run(line)
      return "no error"
    } catch {
      return REPLError.describe(error)
    }
  }

  @Test func passwordsAreNeverShownThroughKeyPaths() throws {
    let (session, _) = try session()
    _ = try session.run("inspect Staff 1")
    let shown = try session.run("show object.password")
    #expect(shown == "object.password = (a password, never shown)  # set")
    _ = try session.run("login Mike 12345")
    #expect(!(try session.run("show user.password")).contains("8cb2237d"))
    #expect(try session.run("show object.firstName") == "object.firstName = 'Mike'  # set")
    #expect(
      error(session, "show object.frstName")
        == "Staff has no property 'frstName' (did you mean firstName?)")
    _ = try session.run("inspect Store 1")  // through a to-many relationship too
    #expect(
      try session.run("show object.staff.password")
        == "object.staff.password = (a password, never shown)  # set")
  }

  @Test func renderFetchesTheShownObjectAgain() throws {
    let (session, path) = try session()
    #expect(try session.run("inspect Actor 2").contains("NICK"))
    let other = try SQLiteAdaptor(path: path)
    _ = try other.execute(
      SQLStatement(raw: "UPDATE actor SET first_name = 'NICKY' WHERE actor_id = 2"))
    #expect(try session.run("render").contains("NICKY"))
    _ = try other.execute(SQLStatement(raw: "DELETE FROM film_actor WHERE actor_id = 2"))
    _ = try other.execute(SQLStatement(raw: "DELETE FROM actor WHERE actor_id = 2"))
    #expect(error(session, "render") == "Actor 2 no longer exists")
  }

  @Test func pagingStopsAtBothEnds() throws {
    let (session, _) = try session()
    #expect(try session.run("list Actor limit 100 offset 150").contains("151–200 of 200 Actor"))
    #expect(error(session, "next") == "already at the last page")
    _ = try session.run("list Actor limit 100 offset 51")
    #expect(try session.run("prev").contains("1–100 of 200 Actor"))
    #expect(error(session, "prev") == "already at the first page")
    #expect(try session.run("list Actor limit 0").hasSuffix("0 of 200 Actor (offset 0, limit 0)"))
  }

  @Test func propertyNamesMatchWithoutCaseOrSuggest() throws {
    let (session, _) = try session()
    #expect(
      try session.run("list Actor where LASTNAME = 'GUINESS' order by FIRSTNAME limit 1").contains(
        "ED "))
    #expect(
      error(session, "list Actor order by lastNme")
        == "Actor has no property 'lastNme' (did you mean lastName?)")
    #expect(
      error(session, "list Film where langauge.name = 'English'")
        == "Film has no property 'langauge' (did you mean language?)")
    #expect(
      try session.run("list Film where LANGUAGE.NAME = 'English' limit 1").contains(
        "1–1 of 1000 Film"))
    _ = try session.run("inspect Film 1")
    #expect(
      error(session, "follow langauge")
        == "Film has no property 'langauge' (did you mean language?)")
    #expect(error(session, "list Acter") == "no entity named Acter (did you mean Actor?)")
  }

  @Test func anEditIsLeftOnlyThroughSaveOrRevert() throws {
    let (session, _) = try session()
    _ = try session.run("login Mike 12345")
    _ = try session.run("edit Actor 1")
    _ = try session.run("object.firstName = 'PEN'")
    let unsaved = "Actor 1 has unsaved changes: save or revert first"
    #expect(error(session, "task = 'list'") == unsaved)
    #expect(error(session, "unset object") == unsaved)
    #expect(error(session, "delete Actor 1") == unsaved)
    #expect(try session.run("show task") == "task = 'edit'  # set")
    _ = try session.run("revert")
    #expect(try session.run("task = 'list'") == "")
  }

  @Test func badArgumentsAreErrors() throws {
    let (session, _) = try session()
    #expect(error(session, "rules --bogus") == "usage: rules [--all] [KEY]")
    #expect(error(session, "rules nosuchkey").hasPrefix("unknown key 'nosuchkey'"))
    #expect(error(session, "help frob") == "no command 'frob' (try `help`)")
    #expect(error(session, "list Actor limit 1 limit 2") == "only one limit clause")
    #expect(
      error(session, "inspect Film 99999999999999999999999")
        == "99999999999999999999999 is out of range for id (a whole number of 64 bits)")
    #expect(
      error(session, "delete Film 1").hasPrefix("Film 1 cannot be deleted: other rows refer to it"))
  }

  @Test func parseErrorsPointIntoTheTypedLine() throws {
    let (session, _) = try session()
    #expect(
      error(session, "list Film where (title = 'x'") == """
        1:29: expected ')' to close the '(' at 1:17
        list Film where (title = 'x'
                                    ^
        """)
    // The last occurrence of the clause is the parsed one; columns count scalars.
    #expect(
      error(session, "list Language where a =") == """
        1:24: expected a value, found end of input
        list Language where a =
                               ^
        """)
  }

  @Test func rulesAndValuesAreParsedAtTheirColumn() throws {
    let (session, _) = try session()
    #expect(
      error(session, "rule task = edit => title = 'x'") == """
        1:13: unknown key 'edit'; quote it if it is a string ('edit')
        rule task = edit => title = 'x'
                    ^
        """)
    #expect(
      error(session, "title = 'x") == """
        1:9: unterminated string: missing closing '
        title = 'x
                ^
        """)
    // The clause's text also appears earlier on the line: the caret is still under the clause.
    #expect(
      error(session, "list Film where title = 'a' and title = 'a' or") == """
        1:47: expected a condition, found end of input
        list Film where title = 'a' and title = 'a' or
                                                      ^
        """)
  }

  @Test func countPrintsTheExactNumberAlone() throws {
    let (session, _) = try session()
    #expect(try session.run("count Film") == "1000")
    #expect(try session.run("count film where rating = 'G'") == "178")
    #expect(try session.run("count Actor where films.title = 'ACADEMY DINOSAUR'") == "10")
    #expect(error(session, "count Nothing") == "no entity named Nothing")
    #expect(error(session, "count Film rating = 'G'") == "usage: count ENTITY [where QUALIFIER]")
    #expect(error(session, "count Film where rating =").hasPrefix("1:26: expected a value"))
    _ = try session.run("platform = 'json'")
    #expect(try session.run("count Film where length > 180") == #"{"count":39}"#)
  }

  @Test func theCommandParserReturnsTypedClauses() throws {
    let command = try CommandParser.parse(
      "LIST Film where rating = 'G' order by title desc, length limit 2 offset 4")
    let expected = REPLCommand.list(
      entity: "Film",
      clauses: ListClauses(
        qualifier: try QualifierParser.parse("rating = 'G'"),
        orderings: [SortOrdering("title", ascending: false), SortOrdering("length")], limit: 2,
        offset: 4))
    #expect(command == expected)
    #expect(
      try CommandParser.parse("choose language where name like 'E*'")
        == .choose(relationship: "language", qualifier: try QualifierParser.parse("name like 'E*'"))
    )
    #expect(try CommandParser.parse("  # only a comment") == nil)
  }

  @Test func aRuleCycleFailsTheRender() throws {
    let (session, _) = try session()
    _ = try session.run("inspect Actor 1")
    _ = try session.run("rule *true* => title = navigationBarTitle")
    #expect(error(session, "render").hasPrefix("rule cycle: "))
    _ = try session.run("drop 1")
    #expect(try session.run("render").hasPrefix("PENELOPE"))
  }

  @Test func nestedSourceErrorsNameTheInnermostFileOnce() throws {
    let (session, _) = try session()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-self-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    try "source \(file.path)\n".write(to: file, atomically: true, encoding: .utf8)
    #expect(
      error(session, "source \(file.path)") == "\(file.path):1: source nests deeper than 16 files")
  }

  @Test func editDistanceCountsTranspositionsAndEmptyNames() {
    #expect(Suggestions.editDistance("langauge", "language", limit: 2) == 1)
    #expect(Suggestions.editDistance("lastNme", "lastName", limit: 2) == 1)
    #expect(Suggestions.editDistance("", "abc", limit: 5) == 3)
    #expect(Suggestions.editDistance("abc", "abc", limit: 2) == 0)
    #expect(
      Suggestions.editDistance("actor", "payment", limit: 2) == 3, "past the limit: limit + 1")
  }
}
