import EnvKeys
import Foundation

/// The command line's one-shot modes: `--lint`, `--check FILE [--update]`, and the
/// `--coverage` report at exit.
extension REPLOptions {
  /// Prints the lint of the user's rules (with `--plugin NAME`, that plugin's); 1 when there
  /// are warnings, 2 when no such plugin is installed, else 0.
  func runLint(_ session: REPLSession) -> Int32 {
    let report: (text: String, warnings: Int)
    do {
      report =
        try lintPlugin.map { try session.lintReport(plugin: $0) }
        ?? session.lintReport(all: false)
    } catch {
      REPLRunner.standardWrite("error: " + REPLError.describe(error), true)
      return 2
    }
    print(report.text)
    return report.warnings == 0 ? 0 : 1
  }

  /// `--demo --copy FILE`: builds the Sakila sample afresh from the SQL shipped with D2S into
  /// FILE, which must not exist yet (the demo's own copy, which demo sessions may have
  /// changed, is left alone); 0 when written, else 2 with the reason.
  func copyDemo(to path: String) -> Int32 {
    guard demo, database == nil else {
      REPLRunner.standardWrite(
        "error: --copy goes with --demo, and takes no database: it writes the sample", true)
      return 2
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      REPLRunner.standardWrite("error: \(path) exists; --copy writes only a new file", true)
      return 2
    }
    do {
      try Demo.build(at: path)
    } catch {
      REPLRunner.standardWrite("error: cannot write \(path): \(REPLError.describe(error))", true)
      return 2
    }
    print("wrote the Sakila sample database to \(path)")
    return 0
  }

  /// Runs the transcript at `path` in `session` (already on a fresh database copy); prints a
  /// diff for each command whose output differs, or rewrites the file with `--update`.
  /// Returns the exit status: 1 on a mismatch (0 after an update), 2 when it cannot be read.
  func runCheck(_ path: String, session: REPLSession) throws -> Int32 {
    let text: String
    do { text = try TextFile.read(path) } catch {
      REPLRunner.standardWrite("error: cannot read transcript \(error)", true)
      return 2
    }
    let transcript = Transcript(text)
    let outputs = TranscriptRun.outputs(of: transcript, in: session)
    let differing = transcript.entries.indices.filter {
      transcript.entries[$0].expected != outputs[$0]
    }
    if update {
      do {
        try transcript.text(replacing: outputs).write(
          toFile: path, atomically: true, encoding: .utf8)
      } catch {
        REPLRunner.standardWrite(
          "error: cannot write \(path): \((error as NSError).localizedDescription)", true)
        return 2
      }
      print("updated \(path): \(differing.count) of \(transcript.entries.count) commands changed")
      return 0
    }
    for index in differing {
      print(Transcript.diff(file: path, entry: transcript.entries[index], actual: outputs[index]))
    }
    if differing.isEmpty {
      print("\(path): \(transcript.entries.count) commands, all as expected")
      return 0
    }
    print("\(path): \(differing.count) of \(transcript.entries.count) commands differ")
    return 1
  }

  /// `--coverage`: the rules that never won, on stderr.
  func reportCoverage(_ session: REPLSession) {
    let never = session.neverWon()
    fflush(nil)
    var lines = [
      "coverage: \(never.count) of \(session.context.engine.ruleModel.count) rules never won"
    ]
    lines += never.map { "  " + session.sourceText($0) }
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
  }
}

/// Runs a transcript's commands in script mode and collects what each printed.
enum TranscriptRun {
  /// Each entry's output lines (stdout and stderr as they interleave).
  static func outputs(of transcript: Transcript, in session: REPLSession) -> [[String]] {
    final class Collector: @unchecked Sendable { var lines: [String] = [] }
    let collector = Collector()
    var runner = REPLRunner(session: session) { text, _ in
      collector.lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
    }
    runner.measures = false  // `timing` and `trace` are off in transcripts, whatever they say
    var outputs: [[String]] = []
    var stopped = false
    for entry in transcript.entries {
      collector.lines = []
      if !stopped, runner.runLine(entry.command) == .quit { stopped = true }
      var lines = collector.lines
      while lines.last?.trimmingCharacters(in: .whitespaces) == "" { lines.removeLast() }
      outputs.append(lines)
    }
    return outputs
  }
}
