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
    try run("/usr/bin/python3", ["-m", "venv", folder.path])
    if !packages.isEmpty {
      try run(
        environment.python,
        ["-m", "pip", "install", "-q", "--disable-pip-version-check"] + packages)
    }
    return environment
  }

  /// Runs the environment's `python` with `arguments` (`-m pip download …`, `-c SCRIPT`);
  /// throws when it fails.
  public func run(_ arguments: [String]) throws {
    try Self.run(python, arguments)
  }

  /// Runs `tool` with `arguments`; throws when it fails.
  static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw PythonEnvironmentError(
        "\(tool) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
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
