import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program with `posix_spawn` and `waitpid`, with a deadline.
///
/// Foundation's `Process` learns that a child ended from a pipe the child inherits; a child
/// that starts a daemon (`tmux new-session` starts tmux's server) hands that pipe on, and
/// `waitUntilExit()` then waits as long as the daemon lives. Here the child gets only
/// standard input, output and error, every other descriptor is closed, and a program that
/// outlives its deadline is killed and reported instead of hanging the test run.
public enum Spawn {
  /// A program that could not be started, or outlived its deadline.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Runs `path` with `arguments`. Standard input is read from the file at `inputPath`,
  /// output and error are written to the files at `outputPath` and `errorPath`; each is
  /// /dev/null when not given. `environment` replaces the inherited one when given.
  /// Returns the exit status, or -1 for a program that a signal ended.
  @discardableResult
  public static func run(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil,
    inputPath: String? = nil, outputPath: String? = nil, errorPath: String? = nil,
    timeout: Double = 30
  ) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inputPath ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(
      &actions, 2, errorPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    closeDescriptorsFromThree(&actions)

    let argv = cStrings([path] + arguments)
    defer { for pointer in argv { free(pointer) } }
    let envp = cStrings(
      (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" })
    defer { for pointer in envp { free(pointer) } }
    // The child starts with no signal blocked and every signal at its default: test threads
    // block some, and a terminal test needs Ctrl-C to arrive.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    var allSignals = sigset_t()
    sigemptyset(&noSignals)
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw Failure(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
    }

    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited == -1 && errno != EINTR {
        throw Failure(description: "cannot wait for \(path): \(String(cString: strerror(errno)))")
      }
      if Date() > deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw Failure(
          description:
            "\(path) \(arguments.joined(separator: " ")) ran over \(timeout) s and was killed")
      }
      usleep(10_000)
    }
    // Exited normally: the low seven bits are zero and the status is in the next byte.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
  }

  /// glibc (2.34 and later) can close every descriptor from 3 up in the child, but Swift's
  /// Glibc module does not import that function, so it is looked up by name. Without it,
  /// each descriptor open now is closed by name (one opened meanwhile by another thread
  /// could still leak).
  private static func closeDescriptorsFromThree(_ actions: inout posix_spawn_file_actions_t) {
    #if canImport(Glibc)
      typealias CloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
      if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        return
      }
    #endif
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
    for descriptor in open.compactMap({ Int32($0) })
    where descriptor > 2 && fcntl(descriptor, F_GETFD) != -1 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
  }

  /// NUL-terminated copies of `strings` and a closing nil, to be freed by the caller.
  private static func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
    strings.map { strdup($0) } + [nil]
  }
}
