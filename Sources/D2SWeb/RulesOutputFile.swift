import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The rules file d2s-serve's rule assistant writes (`--rules-output FILE`): each rule added
/// from a page is appended after a comment naming who added it and when, under an exclusive
/// lock (`flock` on `FILE.lock`, so two servers appending at once take turns), by writing
/// the whole new text to a temporary file beside it and renaming it over the file (a reader
/// sees the old text or the new, never half). Undo removes the last rule appended, when
/// nothing was written after it, restoring the file byte for byte.
struct RulesOutputFile: Sendable {
  /// The file's path, as given on the command line.
  let path: String

  /// Makes the file at `path` when it does not exist (empty: no rules yet).
  static func prepare(_ path: String) throws {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    guard FileManager.default.createFile(atPath: path, contents: Data()) else {
      throw AssistantError("cannot make the rules output file \(path)")
    }
  }

  /// The comment that opens each appended block.
  static let marker = "# added from a page by "

  /// A person's name as a comment may hold it: letters, digits, spaces and `.-_@'` kept,
  /// anything else (a line break, a `#`, a quote of rule text) a `_`, at most 80 characters.
  static func commentSafe(_ name: String) -> String {
    String(
      name.unicodeScalars.prefix(80).map { scalar -> Character in
        let kept =
          (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
          && !scalar.properties.isWhitespace || " .-_@'".unicodeScalars.contains(scalar)
        return kept ? Character(scalar) : "_"
      })
  }

  /// Appends `rule` (one line of rule text) after a comment naming `user` and `date`; the
  /// line number of the rule in the file.
  func append(_ rule: String, by user: String, at date: Date) throws -> Int {
    try append(by: user, at: date) { rule }.line
  }

  /// Appends the rule `check` gives, `check` run under the lock (it reads the file as the
  /// other servers left it); the rule's line number and the rule.
  func append(by user: String, at date: Date, _ check: () throws -> String) throws -> (
    line: Int, rule: String
  ) {
    try locked {
      let rule = try check()
      let old = try current()
      // A file that does not end a line gets one first; the comment says so, and Undo takes
      // it away again.
      let joined = !old.isEmpty && !old.hasSuffix("\n")
      let stamp = ISO8601DateFormatter().string(from: date)
      let block =
        (joined ? "\n" : "") + Self.marker + Self.commentSafe(user) + " at " + stamp
        + (joined ? " (a line end added before)" : "") + "\n" + rule + "\n"
      try replace(with: old + block)
      return (
        (old + block).utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
          .count - 1, rule
      )
    }
  }

  /// Removes the last block ``append(_:by:at:)`` wrote, when it ends the file; the rule it
  /// removed.
  /// - Throws: ``AssistantError`` when the file does not end with one.
  func undoLast() throws -> String {
    try locked {
      let text = try current()
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      // `…, COMMENT, RULE, ""`: the text ends with the rule's line end.
      guard lines.count >= 3, lines[lines.count - 1].isEmpty,
        lines[lines.count - 3].hasPrefix(Self.marker)
      else {
        throw AssistantError("the file does not end with a rule added from a page: nothing undone")
      }
      let rule = lines[lines.count - 2]
      let joined = lines[lines.count - 3].hasSuffix(" (a line end added before)")
      lines.removeLast(3)
      var restored = lines.joined(separator: "\n")
      if !lines.isEmpty, !joined { restored += "\n" }
      try replace(with: restored)
      return rule
    }
  }

  /// The file's text (empty when it does not exist yet).
  func current() throws -> String {
    guard FileManager.default.fileExists(atPath: path) else { return "" }
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  /// `text` written beside the file (the file a link names, with its mode), flushed to the
  /// disk, and renamed over it.
  private func replace(with text: String) throws {
    let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      "." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let mode = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions]
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: Data(text.utf8),
        attributes: mode.map { [.posixPermissions: $0] })
    else { throw AssistantError("cannot write beside \(path)") }
    if let handle = FileHandle(forWritingAtPath: temporary.path) {
      try? handle.synchronize()
      try? handle.close()
    }
    if rename(temporary.path, url.path) != 0 {
      try? FileManager.default.removeItem(at: temporary)
      throw AssistantError("cannot write \(path)")
    }
  }

  /// `work` under the exclusive lock of `FILE.lock`.
  private func locked<T>(_ work: () throws -> T) throws -> T {
    let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw AssistantError("cannot lock \(path)") }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX) == 0 else { throw AssistantError("cannot lock \(path)") }
    defer { flock(descriptor, LOCK_UN) }
    return try work()
  }
}

/// Why the rule assistant did not change the rules.
struct AssistantError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
