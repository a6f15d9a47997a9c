@preconcurrency import CLibEditLoader
import D2SModel
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The interactive loop over libedit: prompt, history in `~/.d2s_history` (never `login`
/// lines or URLs with passwords), tab completion of command words, key names and entity names.
enum LineEditor {
  /// Words completed when no session runs (position-blind; tests set them).
  nonisolated(unsafe) static var words: [String] = []
  /// The session whose model completion reads (set while the interactive loop runs).
  nonisolated(unsafe) static var session: REPLSession?
  /// A byte read but not yet used (it ended a cut-off UTF-8 sequence); libedit reads keys on
  /// one thread only.
  nonisolated(unsafe) static var pendingByte: UInt8?

  static func runInteractive(_ runner: REPLRunner) {
    setlocale(LC_CTYPE, "")
    catchInterrupts()
    if let error = d2s_libedit_load() {
      REPLRunner.standardWrite(
        "d2s-repl: no line editing (\(String(cString: error))): reading plain lines", true)
      return runWithoutEditing(runner)
    }
    d2s_rl_set_getc_function { _ in readCharacter() }  // before libedit initialises, or unused
    d2s_rl_set_readline_name(strdup("d2s"))
    d2s_rl_set_attempted_completion_function { text, _, _ in
      d2s_rl_set_attempted_completion_over(1)
      return d2s_rl_completion_matches(text, completionGenerator)
    }
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    let historyPath = home + "/.d2s_history"
    HistoryFile.prepare(atPath: historyPath)
    d2s_read_history(historyPath)
    runner.session.confirm = { question in
      let raw = d2s_readline(question)
      defer { free(raw) }
      guard let raw, !Interruption.isRequested else {  // Ctrl-C or Ctrl-D: no
        print(Interruption.isRequested ? "^C" : "")
        return false
      }
      return ["y", "yes"].contains(
        String(cString: raw).trimmingCharacters(in: .whitespaces).lowercased())
    }
    idle = { runner.writeReloadsAtPrompt() }
    session = runner.session
    printBanner(runner)
    while true {
      let prompt = "\(runner.session.promptLabel)> "
      Interruption.reset()
      let raw = d2s_readline(prompt)
      if Interruption.isRequested {  // Ctrl-C: the line typed so far is dropped
        free(raw)
        print("^C")
        continue
      }
      guard let raw else {
        print("")
        break
      }
      let line = String(cString: raw)
      free(raw)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty && !isSecret(trimmed) {
        d2s_add_history(line)
        d2s_write_history(historyPath)
      }
      if runner.runLine(line) == .quit { break }
    }
  }

  /// The version line, then the session's first page (the entity list once a database is open).
  static func printBanner(_ runner: REPLRunner) {
    print("d2s-repl \(D2SREPLCommand.version): type `help` for the commands, Ctrl-D to quit")
    if let first = try? runner.session.firstPage(), !first.isEmpty { print(first) }
  }

  /// The interactive loop when libedit cannot be loaded: the same prompt and commands, over
  /// plain lines (no editing, history or completion).
  static func runWithoutEditing(_ runner: REPLRunner) {
    // Byte by byte, as libedit's keys are, so that Ctrl-C ends the read at once.
    func line(after prompt: String) -> String? {
      while true {
        print(prompt, terminator: "")
        fflush(stdout)
        Interruption.reset()
        var bytes: [UInt8] = []
        var ended = false
        while true {
          guard let byte = readByte() else {
            ended = true
            break
          }
          if byte == 0x0A { break }
          bytes.append(byte)
        }
        if Interruption.isRequested {  // Ctrl-C: the line typed so far is dropped
          print("^C")
          continue
        }
        if ended && bytes.isEmpty { return nil }  // Ctrl-D
        return String(decoding: bytes, as: UTF8.self)
      }
    }
    idle = { runner.writeReloadsAtPrompt() }
    session = runner.session
    runner.session.confirm = { question in
      guard let answer = line(after: question) else { return false }
      return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
    printBanner(runner)
    while let typed = line(after: "\(runner.session.promptLabel)> ") {
      if runner.runLine(typed) == .quit { return }
    }
    print("")
  }

  /// Ctrl-C asks the running command to stop (``Interruption``) instead of ending the
  /// process. The handler is installed without SA_RESTART, so that a read waiting for a key
  /// returns at once and ``readCharacter()`` can end the line.
  static func catchInterrupts() {
    Interruption.reset()  // initialises the flag before a signal can touch it
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in Interruption.request() }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    sigaction(SIGINT, &action, nil)
    var interrupt = sigset_t()  // a parent may have left it blocked
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
  }

  /// Lines never written to the history: logins and URLs with passwords.
  static func isSecret(_ line: String) -> Bool {
    line.lowercased().hasPrefix("login ")
      || line.range(of: #"://[^/\s]*:[^/\s]*@"#, options: .regularExpression) != nil
      || line.lowercased().contains("password=")
  }
}

/// libedit's key reader: one character from standard input, decoded from UTF-8 (libedit
/// takes the returned number as the character). -1, which libedit reads as the end of input,
/// on end of file, on an error, and on Ctrl-C (before a read or during it), so that
/// `readline` returns at once. Bytes that are not UTF-8 become U+FFFD.
private func readCharacter() -> Int32 {
  var bytes: [UInt8] = []
  var expected = 1
  while true {
    if Interruption.isRequested { return -1 }
    guard let byte = LineEditor.pendingByte ?? readByte() else { return -1 }
    LineEditor.pendingByte = nil
    if bytes.isEmpty {
      expected =
        byte < 0x80 || byte >= 0xF8 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
    } else if byte & 0xC0 != 0x80 {
      LineEditor.pendingByte = byte  // a cut-off sequence: this byte starts the next character
      return 0xFFFD
    }
    bytes.append(byte)
    guard bytes.count >= expected else { continue }
    return Int32(String(validating: bytes, as: UTF8.self)?.unicodeScalars.first?.value ?? 0xFFFD)
  }
}

/// One byte of standard input; nil at the end, on an error, or on Ctrl-C.
private func readByte() -> UInt8? {
  while true {
    LineEditor.waitForInput()
    if Interruption.isRequested { return nil }  // Ctrl-C while waiting
    var byte: UInt8 = 0
    let count = read(STDIN_FILENO, &byte, 1)
    if count == 1 { return byte }
    if count == 0 { return nil }
    let error = errno
    if error == EINTR {
      if Interruption.isRequested { return nil }
      continue
    }
    // A program before us may have left the terminal non-blocking: block again and retry.
    let flags = fcntl(STDIN_FILENO, F_GETFL)
    if error == EAGAIN, flags >= 0, flags & O_NONBLOCK != 0,
      fcntl(STDIN_FILENO, F_SETFL, flags & ~O_NONBLOCK) == 0
    {
      continue
    }
    return nil
  }
}

private func completionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32)
  -> UnsafeMutablePointer<CChar>?
{
  let prefix = text.map { String(cString: $0) } ?? ""
  let line = d2s_rl_line_buffer().map { String(cString: $0) } ?? ""
  let matches = LineEditor.completions(prefix: prefix, line: line)
  return Int(state) < matches.count ? strdup(matches[Int(state)]) : nil
}

extension LineEditor {
  /// The completions of `prefix` in `line` (the cursor at its end): by position when a
  /// session runs (``Completion``); else file names after `load`, `source`, `write` and
  /// `open`, and words.
  static func completions(prefix: String, line: String) -> [String] {
    let head = line.hasSuffix(prefix) ? String(line.dropLast(prefix.count)) : line
    if let session { return Completion.candidates(for: prefix, after: head, in: session) }
    let first = line.split(separator: " ").first.map { $0.lowercased() } ?? ""
    if ["load", "source", "write", "open"].contains(first), line.contains(" ") {
      return fileNames(prefix)
    }
    return words.filter { $0.hasPrefix(prefix) }
  }

  /// Entries of the folder `prefix` points into, folders with a trailing `/`.
  static func fileNames(_ prefix: String) -> [String] {
    let slash = prefix.lastIndex(of: "/")
    let folder = slash.map { String(prefix[...$0]) } ?? ""
    let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    let manager = FileManager.default
    let entries = (try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    return entries.filter { $0.hasPrefix(start) && (!$0.hasPrefix(".") || start.hasPrefix(".")) }
      .sorted().map { name in
        var isFolder: ObjCBool = false
        _ = manager.fileExists(atPath: folder + name, isDirectory: &isFolder)
        return folder + name + (isFolder.boolValue ? "/" : "")
      }
  }
}

extension REPLSession {
  /// `sakila list Customer` / `sakila`.
  var promptLabel: String {
    guard let database = context.database else { return "d2s" }
    guard let entity = context.entity else { return database.name }
    return "\(database.name) \(context.task) \(entity.name)"
  }
}
