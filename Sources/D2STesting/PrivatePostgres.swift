import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A PostgreSQL server of one test's own: its own data folder and Unix socket, started,
/// stopped and restarted by the test, so that its faults never reach other tests. Runs as
/// the `postgres` user when the tests run as root (the server refuses root).
public final class PrivatePostgres {
  /// The folder of the newest installed server's programs, if any.
  public static let binaries: String? = {
    let root = "/usr/lib/postgresql"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
    for version in names.compactMap({ Int($0) }).sorted().reversed()
    where access("\(root)/\(version)/bin/initdb", X_OK) == 0 {
      return "\(root)/\(version)/bin"
    }
    return nil
  }()

  /// The server's folder (data, socket, logs).
  public let base: URL
  /// Its port (on its own Unix socket only).
  public let port: Int
  let bin: String
  /// The URL of database `faults`.
  public var url: String { "postgresql://postgres@/faults?host=\(base.path)&port=\(port)" }

  /// A server that could not be made, started or stopped.
  public struct Failure: Error, CustomStringConvertible { public var description: String }

  /// Creates and starts a server holding database `faults` with `sql` loaded.
  public init(sql: String) throws {
    guard let bin = Self.binaries else {
      throw Failure(description: "no PostgreSQL server installed")
    }
    self.bin = bin
    base = URL(fileURLWithPath: "/tmp/d2s-pg-fault-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base.path)
    if getuid() == 0 {
      try FileManager.default.setAttributes(
        [.ownerAccountName: "postgres"], ofItemAtPath: base.path)
    }
    port = 40_000 + Int.random(in: 0..<10_000)
    try asServer(
      "initdb",
      [
        "-D", base.path + "/data", "-U", "postgres", "--auth-local=trust", "-E", "UTF8",
        "--no-sync",
      ])
    try start()
    _ = try psql("CREATE DATABASE faults", database: "postgres")
    _ = try psql(sql)
  }

  deinit {
    try? stop(mode: "immediate")
    try? FileManager.default.removeItem(at: base)
  }

  /// Starts the server.
  public func start() throws {
    let options = "-c listen_addresses='' -p \(port) -k \(base.path) -c fsync=off"
    try asServer(
      "pg_ctl",
      [
        "-D", base.path + "/data", "-l", base.path + "/server.log", "-w", "-t", "30", "-o", options,
        "start",
      ])
  }

  /// Stops the server (`fast`: clients are told and disconnected, as in a restart).
  public func stop(mode: String = "fast") throws {
    try asServer("pg_ctl", ["-D", base.path + "/data", "-m", mode, "-w", "-t", "30", "stop"])
  }

  /// Stops and starts the server.
  public func restart() throws {
    try stop()
    try start()
  }

  /// Runs `sql` with psql and returns its unaligned output (`|` between values).
  @discardableResult
  public func psql(_ sql: String, database: String = "faults") throws -> String {
    let output = base.appendingPathComponent("psql.out").path
    let status = try Spawn.run(
      "/usr/bin/psql",
      [
        "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", base.path, "-p", "\(port)", "-U",
        "postgres", "-d", database, "-c", sql,
      ],
      outputPath: output, errorPath: base.appendingPathComponent("psql.err").path)
    guard status == 0 else {
      let error =
        (try? String(contentsOfFile: base.appendingPathComponent("psql.err").path, encoding: .utf8))
        ?? ""
      throw Failure(description: "psql failed (\(status)): \(error)")
    }
    return try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  private func asServer(_ program: String, _ arguments: [String]) throws {
    let log = base.appendingPathComponent("\(program).log").path
    let command =
      getuid() == 0
      // From `/`: the checkout may sit in a folder only its owner can enter (a 0700
      // temporary folder), and initdb fails when it cannot reach its working directory.
      ? (
        "/usr/sbin/runuser",
        ["-u", "postgres", "--", "/bin/sh", "-c", #"cd / && exec "$0" "$@""#, "\(bin)/\(program)"]
          + arguments
      )
      : ("\(bin)/\(program)", arguments)
    let status = try Spawn.run(command.0, command.1, outputPath: log, errorPath: log, timeout: 60)
    guard status == 0 else {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      throw Failure(description: "\(program) failed (\(status)): \(text)")
    }
  }
}
