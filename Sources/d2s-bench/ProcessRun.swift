import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// One run of a whole process, as a user runs it: its wall time and peak memory. Output goes
/// to /dev/null so that every command writes to the same sink (stderr may go to a file, for
/// the lines a run reports about itself).
struct ProcessRun {
  var milliseconds: Double
  var peakKilobytes: Int
  var status: Int32

  /// Runs `arguments` (the first is the program, looked up on PATH) to completion. Peak memory
  /// comes from GNU time when it is installed (a process started from this one would report
  /// this process's own peak as its floor), else it is 0. With `standardError`, the process's
  /// stderr is written to that file.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], standardError: String? = nil
  ) throws -> ProcessRun {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else {
      return try spawn(arguments, environment: environment, errors: standardError, peak: nil)
    }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-peak-\(getpid())"
    ).path
    defer { try? FileManager.default.removeItem(atPath: report) }
    return try spawn(
      [time, "-f", "%M", "-o", report] + arguments, environment: environment,
      errors: standardError, peak: report)
  }

  private static func spawn(
    _ arguments: [String], environment: [String: String], errors: String?, peak report: String?
  ) throws -> ProcessRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = ContinuousClock.now - start
    let ms =
      Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    let peak =
      report.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
      .flatMap { Int($0.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) ?? "") }
      ?? 0
    return ProcessRun(milliseconds: ms, peakKilobytes: peak, status: (status >> 8) & 0xFF)
  }
}

/// A benchmark that cannot run.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The median of `values`.
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
