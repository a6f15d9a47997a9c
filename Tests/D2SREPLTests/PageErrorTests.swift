import D2STesting
import Foundation
import Testing

/// An error met before a page's first row prints nothing of that page: no heading above the
/// error (a view whose rows fail as SQLite steps them, through the built binary).
@Suite struct PageErrorTests {
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
  func anErrorBeforeTheFirstRowLeavesNoHeading() throws {
    let database = try TestDatabases.sqliteFile(
      """
      CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
      INSERT INTO t VALUES (1, 'a');
      CREATE VIEW bad AS SELECT id, json('not json') AS x FROM t;
      """, named: "page-error")
    let run = try BinaryTests().run([database, "-c", "list T", "-c", "list Bad", "-c", "list T"])
    #expect(run.status == 1)
    #expect(run.stderr == "error: malformed JSON\n")
    #expect(!run.stdout.contains("Bad"), "\(run.stdout)")
    #expect(run.stdout.components(separatedBy: "1 T").count == 3, "the pages around it whole")
  }
}
