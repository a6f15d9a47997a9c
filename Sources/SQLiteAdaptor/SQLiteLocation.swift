import D2SModel

/// Where and how to open an SQLite database: `PATH`, `:memory:`, or `sqlite:PATH` with the
/// parameters `mode=ro|rw` and `vfs=NAME` (`sqlite:data/shop.db?mode=ro`).
struct SQLiteLocation: Equatable {
  /// The file path (or `:memory:`).
  var path: String
  /// Whether to open the file read-only.
  var readOnly: Bool
  /// The SQLite VFS to open it with (nil: the default).
  var vfs: String?
  /// Why it is read-only when asked so: the flag or the URL.
  var readOnlyReason: String?

  /// Parses `target`; `readOnly` (the `--read-only` flag) wins over `mode=rw`.
  init(_ target: String, readOnly: Bool) throws {
    self.readOnly = readOnly
    readOnlyReason = readOnly ? "opened read-only" : nil
    guard target.hasPrefix("sqlite:") else {
      path = target
      return
    }
    let rest = target.dropFirst("sqlite:".count)
    guard let question = rest.firstIndex(of: "?") else {
      path = String(rest)
      return
    }
    path = String(rest[..<question])
    for parameter in rest[rest.index(after: question)...].split(separator: "&") {
      let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let value = parts.count == 2 ? String(parts[1]) : ""
      switch (parts[0], value) {
      case ("mode", "ro"):
        if !self.readOnly { readOnlyReason = "opened with mode=ro" }
        self.readOnly = true
      case ("mode", "rw"): break
      case ("vfs", _) where !value.isEmpty: vfs = value
      default:
        throw DatabaseError(
          .invalidValue,
          "unknown SQLite URL parameter '\(parameter)' in \(target) (use mode=ro, mode=rw or vfs=NAME)"
        )
      }
    }
  }
}

extension SQLiteLocation {
  /// The file name of `path` without its extension (`data/shop.db` → `shop`), by hand rather
  /// than through `URL`, whose first use costs a start-up's worth of set-up.
  static func stem(of path: String) -> String {
    let name =
      path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// The folder `path` is in (`.` for a bare file name, `/` for a file at the root).
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
