import Foundation

/// A REPL transcript (`--check FILE`): each line that starts with `> ` is a command as typed;
/// the lines after it, up to the next command line, are its expected output (stdout and stderr
/// interleaved). Text before the first command is ignored; blank lines that end a block are
/// spacing, not output.
public struct Transcript: Sendable, Equatable {
  /// One command and the output it should print.
  public struct Entry: Sendable, Equatable {
    /// The command, without `> `.
    public var command: String
    /// The transcript's line number of the command (1-based).
    public var line: Int
    /// The expected output lines.
    public var expected: [String]
    /// Blank lines after the output, kept when the transcript is rewritten.
    var spacing: Int
  }

  /// Text before the first command.
  var preamble: [String]
  /// The commands, in order.
  public var entries: [Entry]

  /// Parses transcript text.
  public init(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    preamble = []
    entries = []
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("> ") || line == ">" {
        entries.append(
          Entry(command: String(line.dropFirst(2)), line: index + 1, expected: [], spacing: 0))
      } else if entries.isEmpty {
        preamble.append(line)
      } else {
        entries[entries.count - 1].expected.append(line)
      }
    }
    for index in entries.indices {
      while entries[index].expected.last?.trimmingCharacters(in: .whitespaces) == "" {
        entries[index].expected.removeLast()
        entries[index].spacing += 1
      }
    }
  }

  /// The transcript as text, with `actual` outputs in place of the expected ones when given.
  public func text(replacing actual: [[String]]? = nil) -> String {
    var lines = preamble
    for (index, entry) in entries.enumerated() {
      lines.append("> " + entry.command)
      lines += actual.flatMap { $0.indices.contains(index) ? $0[index] : nil } ?? entry.expected
      lines += Array(repeating: "", count: entry.spacing)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A unified diff of one entry's expected and actual output, numbered by transcript line.
  public static func diff(file: String, entry: Entry, actual: [String]) -> String {
    let first = entry.line + 1
    var lines = [
      "--- \(file):\(entry.line) expected", "+++ \(file):\(entry.line) actual",
      "@@ -\(first),\(entry.expected.count) +\(first),\(actual.count) @@ > \(entry.command)",
    ]
    lines += LineDiff.lines(entry.expected, actual)
    return lines.joined(separator: "\n")
  }
}

/// The smallest edit between two lists of lines, as ` `, `-` and `+` lines.
enum LineDiff {
  static func lines(_ old: [String], _ new: [String]) -> [String] {
    // Longest common subsequence table, from the ends.
    var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        table[i][j] =
          old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var (i, j) = (0, 0)
    var result: [String] = []
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        result.append(" " + old[i])
        i += 1
        j += 1
      } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
        result.append("-" + old[i])
        i += 1
      } else {
        result.append("+" + new[j])
        j += 1
      }
    }
    return result
  }
}
