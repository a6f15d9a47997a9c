import D2SModel
import Foundation
import SQLiteAdaptor
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The Sakila sample (shipped in `data/sakila`) as an SQLite file, built once per test run from `data/sakila/*.sql`
/// (triggers dropped while the rows go in, so `last_update` keeps its original values), and
/// copied for each test that writes.
public enum SakilaSQLite {
  /// The checkout's `data/sakila` folder: the schema and data scripts the fixture is built
  /// from.
  public static let dataFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data/sakila")

  private static let built = Mutex<Result<String, DatabaseError>?>(nil)

  /// The path of the pristine database (do not write to it).
  public static func pristinePath() throws -> String {
    try built.withLock { state in
      if let state { return try state.get() }
      let result = Result { () throws(DatabaseError) -> String in try build() }
      state = result
      return try result.get()
    }
  }

  private static func build() throws(DatabaseError) -> String {
    let path = fixturePath
    // Fixtures and folders of earlier runs (never those of test processes still running).
    TestFolders.removeStale()
    do {
      try? FileManager.default.removeItem(atPath: path)
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      let adaptor = try SQLiteAdaptor(path: path)
      let schema = try String(
        contentsOf: dataFolder.appendingPathComponent("sqlite-schema.sql"), encoding: .utf8)
      try adaptor.executeScript(schema)
      var triggers: [(String, String)] = []
      try adaptor.query(
        SQLStatement(
          raw: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid"),
        columns: [nil, nil]
      ) { row in
        triggers.append((row[0].stringValue ?? "", row[1].stringValue ?? ""))
      }
      for (name, _) in triggers { try adaptor.executeScript("DROP TRIGGER \"\(name)\"") }
      let data = try String(
        contentsOf: dataFolder.appendingPathComponent("sqlite-data.sql"), encoding: .utf8)
      try adaptor.executeScript(data)  // the file has its own transaction
      for (_, sql) in triggers { try adaptor.executeScript(sql) }
      return path
    } catch let error as DatabaseError {
      throw error
    } catch {
      throw DatabaseError(.other, "building the Sakila SQLite fixture failed: \(error)")
    }
  }

  /// Whether `name` is a fixture file or copy folder of a test process that has ended.
  static func isStale(_ name: String) -> Bool {
    guard let prefix = ["sakila-fixture-", "d2s-tests-"].first(where: { name.hasPrefix($0) }) else {
      return false
    }
    let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
    guard let pid = Int32(digits), pid > 0 else { return false }
    return kill(pid, 0) != 0 && errno == ESRCH
  }

  /// Where this process builds the pristine database.
  static let fixturePath = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sakila-fixture-\(ProcessInfo.processInfo.processIdentifier).db"
  ).path

  /// This run's folder for copies and ``TestFolders``: removed when the process exits, and
  /// earlier runs' folders when the fixture is built.
  public static let copies = FileManager.default.temporaryDirectory
    .appendingPathComponent("d2s-tests-\(ProcessInfo.processInfo.processIdentifier)")

  /// A private copy of Sakila for one test.
  public static func copy() throws -> String {
    let source = try pristinePath()
    // A folder per copy, so the file keeps the name `sakila.db` (the database's name).
    let folder = try TestFolders.make("sakila")
    let path = folder.appendingPathComponent("sakila.db").path
    try FileManager.default.copyItem(atPath: source, toPath: path)
    return path
  }

  /// A database over a private copy.
  public static func open() throws -> Database {
    try Database(adaptor: SQLiteAdaptor(path: try copy()))
  }
}
