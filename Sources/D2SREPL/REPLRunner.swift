import Components
import D2SModel
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Runs lines through a session and writes their output: stdout for results, stderr for
/// `error: …` lines (after flushing stdout).
public struct REPLRunner {
  /// The session lines run in.
  public let session: REPLSession
  /// Whether a script stops at its first failing line (`--bail`).
  public var bail: Bool
  /// Where output goes (tests collect it).
  public var write: (String, _ isError: Bool) -> Void
  /// Whether the session's `timing` and `trace` lines are written (not in `--check`
  /// transcripts, whose output must not vary).
  public var measures = true

  /// A runner of `session`'s lines, writing through `write`.
  public init(
    session: REPLSession, bail: Bool = false,
    write: @escaping (String, Bool) -> Void = REPLRunner.standardWrite
  ) {
    self.session = session
    self.bail = bail
    self.write = write
  }

  /// Whether `error:` is shown in red: only when stderr is a terminal and `NO_COLOR` is
  /// unset or empty (no-color.org).
  static let colourErrors: Bool = {
    isatty(2) == 1 && (EnvironmentVariable.value("NO_COLOR") ?? "").isEmpty
  }()

  /// Whether pages show text styles (bold, colours) with ANSI codes: only when stdout is a
  /// terminal and `NO_COLOR` is unset or empty.
  static let stylePages: Bool = {
    isatty(1) == 1 && (EnvironmentVariable.value("NO_COLOR") ?? "").isEmpty
  }()

  /// Writes to stdout or stderr; a closed pipe ends the process quietly.
  public static func standardWrite(_ text: String, _ isError: Bool) {
    // No byte from the data reaches the terminal as a control sequence, whatever printed it
    // (pages escape their values already; messages may quote a value).
    let text = TerminalText.escaped(text, keepingLines: true)
    if isError {
      fflush(nil)  // stdout first, so output and errors keep their order
      var line = text
      if colourErrors, line.hasPrefix("error:") {
        line = "\u{1B}[31merror:\u{1B}[0m" + line.dropFirst(6)
      }
      if colourErrors, line.hasPrefix("warning:") {
        line = "\u{1B}[33mwarning:\u{1B}[0m" + line.dropFirst(8)
      }
      FileHandle.standardError.write(Data((line + "\n").utf8))
    } else {
      print(text)
    }
  }

  /// How a line ended: it ran, it failed, or it asked to quit.
  public enum Outcome { case ok, failed, quit }

  /// Runs one line and writes its output.
  @discardableResult
  public func runLine(_ line: String) -> Outcome {
    // Warnings follow the command's output on stderr, then its timing and trace lines.
    var report: [String] = []
    defer {
      for warning in session.takeWarnings() {
        write(
          session.printsJSON ? JSONText.object([("warning", JSONText.string(warning))]) : warning,
          true)
      }
      for line in report { write(line, true) }
    }
    writeReloads()
    let command: REPLCommand
    do {
      guard let parsed = try CommandParser.parse(line) else { return .ok }
      command = parsed
    } catch {
      writeError(error)
      return .failed
    }
    if command == .quit { return .quit }
    guard measures, let measurement = session.beginMeasurement() else { return run(command) }
    let outcome = RowTally.$current.withValue(measurement.rows) { run(command) }
    report = session.endMeasurement(measurement)
    return outcome
  }

  /// Runs a parsed command and writes its output or error.
  private func run(_ command: REPLCommand) -> Outcome {
    do {
      let output = try session.run(command)
      if !output.isEmpty { write(output, false) }
      return .ok
    } catch {
      // A sourced file's lines before the failing one did their work: what they printed first.
      if let failure = error as? SourceError, !failure.output.isEmpty {
        write(failure.output, false)
      }
      writeError(error)
      return .failed
    }
  }

  private func writeError(_ error: any Error) {
    write(
      session.printsJSON ? REPLSession.jsonError(error) : "error: " + REPLError.describe(error),
      true)
  }

  /// Reloads the watched rule files that changed and writes what changed (or their errors).
  public func writeReloads() {
    guard !session.watched.isEmpty else { return }
    let (changes, errors) = session.reloadWatchedFiles()
    for line in changes { write(line, false) }
    for line in errors { write(line, true) }
    for warning in session.takeWarnings() { write(warning, true) }
  }

  /// Runs every line (stopping at the first failure with `bail`); returns whether all
  /// succeeded.
  public func runScript<S: Sequence<String>>(_ lines: S) -> Bool {
    var ok = true
    for line in lines {
      switch runLine(line) {
      case .ok: continue
      case .quit: return ok
      case .failed:
        ok = false
        if bail { return false }
      }
    }
    return ok
  }
}
