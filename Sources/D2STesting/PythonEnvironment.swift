import Foundation

/// A Python virtual environment in a folder of its own, with packages from PyPI: the real
/// clients the tests drive D2S with (the MCP SDK, axe-core). Made with Debian's `python3 -m
/// venv` and its pip; nothing is installed outside the folder.
public struct PythonEnvironment: Sendable {
  /// The environment's folder.
  public let folder: URL

  /// The environment's `python`.
  public var python: String { folder.appendingPathComponent("bin/python").path }

  /// A new environment in `folder` (made if missing) with `packages` installed
  /// (`mcp==2.3.0`).
  public static func make(in folder: URL, packages: [String]) throws -> PythonEnvironment {
    let environment = PythonEnvironment(folder: folder)
    try run("/usr/bin/python3", ["-m", "venv", folder.path], timeout: 60)
    if !packages.isEmpty { try environment.pip(["install", "-q"] + packages) }
    return environment
  }

  /// Runs the environment's `python` with `arguments` (`-c SCRIPT`, a client's script), in
  /// `environment` when given (else this process's); throws when it fails or runs over
  /// `timeout` seconds (it is then killed), with the end of what it wrote to stderr.
  public func run(
    _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 120
  ) throws {
    try Self.run(python, arguments, environment: environment, timeout: timeout)
  }

  /// Runs `python -m pip` with `arguments` (`install …`, `download …`) from PyPI, with a
  /// 30-second network timeout, twice at most: a try that fails, or runs over ``pipTimeout``
  /// and is killed (a stalled index, met once), is made again; a second failure is thrown.
  public func pip(_ arguments: [String]) throws {
    let command =
      ["-m", "pip"] + arguments + ["--disable-pip-version-check", "--timeout", "30"]
    do {
      try run(command, timeout: Self.pipTimeout)
    } catch {
      try run(command, timeout: Self.pipTimeout)
    }
  }

  /// The longest one try of ``pip(_:)`` runs before it is killed, in seconds: twice this and
  /// the test's own work fit in the 5 minutes a test that needs a client may take.
  public static let pipTimeout: Double = 110

  /// Runs `tool` with `arguments`, its output thrown away; throws when it fails or runs over
  /// `timeout` seconds (it is then killed), with the end of what it wrote to stderr.
  static func run(
    _ tool: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double
  ) throws {
    let folder = try TestFolders.make("d2s-python")
    defer { try? FileManager.default.removeItem(at: folder) }
    let errors = folder.appendingPathComponent("stderr.txt")
    func stderrTail() -> String {
      String(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").suffix(2_000))
    }
    let status: Int32
    do {
      status = try Spawn.run(
        tool, arguments, environment: environment, errorPath: errors.path, timeout: timeout)
    } catch {
      throw PythonEnvironmentError("\(error)\n\(stderrTail())")
    }
    guard status == 0 else {
      throw PythonEnvironmentError(
        "\(tool) \(arguments.joined(separator: " ")) failed (status \(status))\n\(stderrTail())")
    }
  }
}

/// A Python environment that could not be made.
public struct PythonEnvironmentError: Error, CustomStringConvertible {
  /// What failed.
  public let description: String
  init(_ description: String) { self.description = description }
}

/// Blocking work (a child process waited for, a socket read) run on a thread of its own,
/// never on one of the few threads Swift's concurrency shares between tests: an async test
/// awaits it, and other tests' timers keep their time.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(with: Result { try body() })
    }
  }
}
