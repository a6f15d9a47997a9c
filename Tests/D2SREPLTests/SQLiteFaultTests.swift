import D2SModel
import D2STesting
import EnvKeys
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// SQLite faults from outside the code under test: another connection holding the write lock,
/// read-only opens (flag, URL, file mode), a full database, a failing disk. Each ends in a
/// clear error, the rows are as they were, and the pending change survives for a retry.
@Suite struct SQLiteFaultTests {
  static let actor1 =
    "SELECT actor_id, first_name, last_name, last_update FROM actor WHERE actor_id = 1"

  /// The rows `sql` selects, read through a connection of their own.
  func rows(_ path: String, _ sql: String) throws -> [[DatabaseValue]] {
    var rows: [[DatabaseValue]] = []
    try SQLiteAdaptor(path: path).query(SQLStatement(raw: sql), columns: []) { rows.append($0) }
    return rows
  }

  func session(_ target: String, readOnly: Bool = false) throws -> REPLSession {
    let session = try REPLSession(width: 100)
    session.readOnly = readOnly
    _ = try session.run("open \(target)")
    return session
  }

  @Test func aWriterHoldingTheLockPastTheBusyTimeout() throws {
    let path = try SakilaSQLite.copy()
    let session = try session(path)
    _ = try session.run("edit Actor 1")
    _ = try session.run("object.firstName = 'LOCKED'")
    let other = try SQLiteAdaptor(path: path)
    try other.executeScript("BEGIN IMMEDIATE")
    let before = try rows(path, Self.actor1)
    let message = session.failure(of: "save")
    #expect(
      message.hasPrefix("database is locked: another connection is writing to it (waited 5 s"))
    #expect(message.hasSuffix("nothing was saved"))
    try other.executeScript("ROLLBACK")
    #expect(try rows(path, Self.actor1) == before)
    // The change is still pending: the same save succeeds once the lock is gone.
    #expect(try session.run("save") == "saved Actor 1")
    #expect(try rows(path, Self.actor1)[0][1] == .string("LOCKED"))
  }

  @Test(arguments: [("flag", "opened read-only"), ("url", "opened with mode=ro")])
  func readOnlyOpensBrowseButRefuseEdits(how: String, reason: String) throws {
    let path = try SakilaSQLite.copy()
    let bytes = FileManager.default.contents(atPath: path)
    let session =
      how == "flag" ? try session(path, readOnly: true) : try session("sqlite:\(path)?mode=ro")
    #expect(try session.run("list Actor limit 2").contains("PENELOPE"))
    _ = try session.run("inspect Actor 1")
    #expect(try session.run("show isEntityReadOnly").hasPrefix("isEntityReadOnly = true"))
    #expect(
      session.failure(of: "edit Actor 1")
        == "sakila is read-only (\(reason)): Actor 1 cannot be edited")
    #expect(
      session.failure(of: "new Actor") == "sakila is read-only (\(reason)): no new Actor objects")
    #expect(
      session.failure(of: "delete Actor 1")
        == "sakila is read-only (\(reason)): Actor 1 cannot be deleted")
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: BinaryTests.binary.path)))
  func theReadOnlyFlagOfTheBinary() throws {
    let path = try SakilaSQLite.copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let output = folder.appendingPathComponent("out").path
    let errors = folder.appendingPathComponent("err").path
    let status = try Spawn.run(
      BinaryTests.binary.path,
      ["--read-only", path, "-c", "list Actor limit 1", "-c", "edit Actor 1"],
      outputPath: output, errorPath: errors)
    #expect(status == 1)
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("PENELOPE"))
    #expect(
      try String(contentsOfFile: errors, encoding: .utf8)
        == "error: sakila is read-only (opened read-only): Actor 1 cannot be edited\n")
  }

  @Test func unknownURLParametersAreErrors() throws {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 100)
    #expect(
      session.failure(of: "open sqlite:\(path)?mode=rx").contains(
        "unknown SQLite URL parameter 'mode=rx'"))
    #expect(
      session.failure(of: "open sqlite:\(path)?vfs=nothing").contains(
        "no SQLite VFS named 'nothing'"))
  }

  /// Root writes any file, so an unprivileged user (`nobody`) runs the binary.
  @Test(
    .enabled(
      if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
        && FileManager.default.fileExists(atPath: BinaryTests.binary.path)))
  func aFileTheUserCannotWrite() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-ro-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("sakila.db").path
    try FileManager.default.copyItem(atPath: try SakilaSQLite.copy(), toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    let bytes = FileManager.default.contents(atPath: path)
    let output = folder.appendingPathComponent("out").path
    let errors = folder.appendingPathComponent("err").path
    // The binary runs from a copy in this folder, and from `/`: the checkout may sit in a
    // folder only its owner can enter (a 0700 temporary folder), which `nobody` cannot.
    let binary = folder.appendingPathComponent("d2s-repl").path
    try FileManager.default.copyItem(atPath: BinaryTests.binary.path, toPath: binary)
    let status = try Spawn.run(
      "/usr/sbin/runuser",
      [
        "-u", "nobody", "--", "/bin/sh", "-c", #"cd / && exec "$0" "$@""#, binary, path,
        "-c", "inspect Actor 1", "-c", "show isEntityReadOnly", "-c", "edit Actor 1",
      ],
      environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "COLUMNS": "100"],
      outputPath: output, errorPath: errors)
    let stdout = try String(contentsOfFile: output, encoding: .utf8)
    let stderr = try String(contentsOfFile: errors, encoding: .utf8)
    #expect(status == 1)
    #expect(stdout.contains("PENELOPE"))
    #expect(stdout.contains("isEntityReadOnly = true"))
    #expect(
      stderr
        == "error: sakila is read-only (\(path) is not writable by this user): Actor 1 cannot be edited\n"
    )
    #expect(FileManager.default.contents(atPath: path) == bytes)
  }

  @Test func aFullDatabase() throws {
    let path = try SakilaSQLite.copy()
    let session = try session(path)
    let adaptor = try #require(session.context.database?.adaptor as? SQLiteAdaptor)
    try adaptor.executeScript("PRAGMA max_page_count = 1")  // SQLite keeps the pages it has
    let count = "SELECT count(*) FROM actor"
    let before = try rows(path, count)
    _ = try session.run("new Actor")
    _ = try session.run("object.firstName = '\(String(repeating: "A", count: 200_000))'")
    _ = try session.run("object.lastName = 'FULL'")
    let message = session.failure(of: "save")
    #expect(message == "database or disk is full; nothing was saved")
    #expect(try rows(path, count) == before)
    try adaptor.executeScript("PRAGMA max_page_count = 1000000")
    #expect(try session.run("save").hasPrefix("saved Actor 201"))
    #expect(
      try rows(path, "SELECT last_name FROM actor WHERE actor_id = 201") == [[.string("FULL")]])
  }

  @Test func anIOErrorDuringASave() throws {
    FaultyVFS.register()
    let path = try SakilaSQLite.copy()
    let session = try session("sqlite:\(path)?vfs=\(FaultyVFS.name)")
    _ = try session.run("edit Actor 1")
    _ = try session.run("object.firstName = 'DISK'")
    let before = try rows(path, Self.actor1)
    FaultyVFS.failingWrites = true
    let message = session.failure(of: "save")
    FaultyVFS.failingWrites = false
    #expect(message.hasPrefix("disk I/O error"))
    #expect(message.hasSuffix("nothing was saved"))
    #expect(try rows(path, Self.actor1) == before)
    #expect(try rows(path, "PRAGMA integrity_check") == [[.string("ok")]])
    #expect(try session.run("save") == "saved Actor 1")
    #expect(try rows(path, Self.actor1)[0][1] == .string("DISK"))
  }
}
