@preconcurrency import CLibEditLoader
import D2SModel
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Work done while the prompt waits for a key: `watch`ed rule files are reloaded at least
/// every second, their change lines printed above the prompt, and the line being typed drawn
/// again after them.
extension LineEditor {
  /// Called about once a second while no key arrives (set by the interactive loop).
  nonisolated(unsafe) static var idle: (() -> Void)?

  /// Blocks until standard input has a byte (or an error or Ctrl-C), running ``idle`` every
  /// second meanwhile.
  static func waitForInput() {
    guard let idle else { return }
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    while poll(&descriptor, 1, 1000) == 0 {
      if Interruption.isRequested { return }
      idle()
    }
  }
}

extension REPLRunner {
  /// Reloads changed watched files while the prompt is idle: clears the prompt's line, writes
  /// the change lines, and draws the prompt and the typed text again.
  func writeReloadsAtPrompt() {
    guard !session.watched.isEmpty else { return }
    let (changes, errors) = session.reloadWatchedFiles()
    let warnings = session.takeWarnings()
    guard !(changes.isEmpty && errors.isEmpty && warnings.isEmpty) else { return }
    print("\r\u{1B}[K", terminator: "")
    fflush(stdout)
    for line in changes { write(line, false) }
    for line in errors + warnings { write(line, true) }
    fflush(nil)
    d2s_rl_forced_update_display()
  }
}
