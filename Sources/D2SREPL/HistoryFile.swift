import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The history file: private to its owner, since command lines may name rows and values.
enum HistoryFile {
  /// Creates the file at `path` with mode 0600 when it does not exist (libedit's
  /// `write_history` keeps the mode of an existing file, but would create one with 0666 less
  /// the umask). An existing file is left as it is: its owner chose its mode.
  static func prepare(atPath path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd >= 0 { close(fd) }
  }
}
