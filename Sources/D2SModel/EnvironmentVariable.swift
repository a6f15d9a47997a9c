#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One environment variable, read with `getenv`: `ProcessInfo.processInfo.environment` copies
/// the whole environment into a dictionary, and its first use sets up ProcessInfo, on every
/// start of d2s-repl.
public enum EnvironmentVariable {
  /// The value of `name`, or nil when it is unset.
  public static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
