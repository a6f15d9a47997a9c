import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

/// Four `d2s-repl` processes editing the same three rows at once: every save is applied or
/// reported as a conflict, and no update is lost, per column. `make stress` runs it longer
/// (`D2S_STRESS_ITERATIONS`).
@Suite(
  .enabled(
    if: FileManager.default.fileExists(atPath: BinaryTests.binary.path), "build d2s-repl first"))
struct ConcurrentEditorTests {
  static let iterations =
    ProcessInfo.processInfo.environment["D2S_STRESS_ITERATIONS"].flatMap(Int.init) ?? 20

  func expectNoLostUpdate(_ report: EditorStress.Report, _ label: String) {
    print("stress \(label): 4 editors × \(Self.iterations) saves: \(report)")
    #expect(report.saves > 0)
    #expect(report.otherErrors == [])
    #expect(report.lostUpdates == [])
    #expect(report.phantomWrites == [])
    #expect(report.wrongFinalValues == [])
  }

  @Test func sqlite() throws {
    let path = try TestDatabases.sqliteFile(EditorStress.sqliteSchema, named: "stress")
    let stress = EditorStress(iterations: Self.iterations)
    let report = try stress.run(
      database: path, adaptor: try SQLiteAdaptor(path: path), binary: BinaryTests.binary.path)
    expectNoLostUpdate(report, "sqlite")
  }

  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "needs the test PostgreSQL"))
  func postgresql() throws {
    let url = try PostgresSakila.database(from: EditorStress.postgresSchema, prefix: "stress")
    let stress = EditorStress(iterations: Self.iterations)
    let report = try stress.run(
      database: url, adaptor: try PostgreSQLAdaptor(url: url), binary: BinaryTests.binary.path)
    expectNoLostUpdate(report, "postgresql")
  }
}

/// The check itself finds a lost update, a phantom write and a wrong final value.
@Suite struct EditorStressCheckTests {
  @Test func findsWhatWentWrong() throws {
    let path = try TestDatabases.sqliteFile(EditorStress.sqliteSchema, named: "check")
    let adaptor = try SQLiteAdaptor(path: path)
    try adaptor.executeScript(
      """
      UPDATE item SET qty = 200001 WHERE id = 1;  -- editor 1, having fetched 1
      UPDATE item SET qty = 100001 WHERE id = 1;  -- editor 0 overwrites it, having fetched 1 too
      UPDATE item SET name = 'ghost' WHERE id = 2;  -- nobody said so
      DELETE FROM item_log WHERE new = 'ghost';
      INSERT INTO item_log (item_id, col, old, new) VALUES (2, 'name', 'b', 'ghost2');
      """)
    let attempts = [
      EditorStress.Attempt(editor: 1, item: 1, changes: [("qty", "1", "200001")], saved: true),
      EditorStress.Attempt(editor: 0, item: 1, changes: [("qty", "1", "100001")], saved: true),
    ]
    var report = EditorStress.Report()
    try EditorStress(iterations: 1).check(attempts, adaptor: adaptor, into: &report)
    #expect(report.lostUpdates == ["editor 0 Item 1.qty = 100001: overwrote 200001, fetched 1"])
    #expect(report.phantomWrites == ["Item 2.name = ghost2"])
    #expect(report.wrongFinalValues == ["Item 2.name = ghost, last save wrote ghost2"])
  }

  @Test func readsTheEditorsOutput() {
    let output = """
      object.name = 'a'  # set
      object.qty = 1  # set
      saved Item 1
      reverted Item 1
      object.name = 'e0i0'  # set
      object.qty = 1  # set
      reverted Item 1
      """
    let attempts = EditorStress.attempts(
      editor: 0, output: output, writes: [[("name", "e0i0")], [("qty", "100001")]])
    #expect(attempts.map(\.saved) == [true, false])
    #expect(attempts.map { $0.changes.map(\.fetched) } == [["a"], ["1"]])
  }
}
