import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// `--timing` and `--trace` of the built binary, where the process runs nothing but the
/// commands: every statement a command ran is in its trace and its count, checked against
/// the statements `D2S_LOGLEVEL=info` logs, on SQLite and PostgreSQL; JSON lines; `--check`
/// transcripts without either.
@Suite struct TraceBinaryTests {
  static let enabled = FileManager.default.fileExists(atPath: BinaryTests.binary.path)

  func database(_ server: TestServer) throws -> String {
    server == .sqlite ? try SakilaSQLite.copy() : try PostgresSakila.copy()
  }

  /// One command's stderr: the statements logged while it ran, its trace, its timing line.
  struct Block {
    var logged: [String] = []
    var traced: [String] = []
    var timing = ""
  }

  /// Stderr cut after each timing line.
  static func blocks(_ stderr: String) -> [Block] {
    var blocks: [Block] = []
    var block = Block()
    for line in stderr.split(separator: "\n").map(String.init) {
      if let range = line.range(of: " info d2s.sql: [D2SModel] ") {
        block.logged.append(String(line[range.upperBound...]))
      } else if let range = line.range(of: " bound: ", options: []), line.hasPrefix("sql ") {
        block.traced.append(String(line[range.upperBound...]))
      } else if line.contains(" rule look-up") && line.contains(" · render ") {
        block.timing = line
        blocks.append(block)
        block = Block()
      }
    }
    return blocks
  }

  /// The number before `word` in a timing line (`3 statements` → 3).
  static func number(before word: String, in line: String) -> Int? {
    let parts = line.split(separator: " ")
    guard let index = parts.firstIndex(where: { $0.hasPrefix(word) }), index > 0 else {
      return nil
    }
    return Int(parts[index - 1])
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"), arguments: TestServer.available)
  func everyStatementIsTracedAndCounted(server: TestServer) throws {
    let result = try BinaryTests().run(
      [
        try database(server), "--timing", "--trace", "-c", "show task", "-c", "inspect Actor 1",
        "-c", "list Actor where lastName = 'GUINESS' order by firstName limit 2", "-c", "next",
        "-c", "count Film where rating = 'G'",
      ], environment: ["D2S_LOGLEVEL": "info"])
    #expect(result.status == 0, "\(result.stderr)")
    let blocks = Self.blocks(result.stderr)
    try #require(blocks.count == 5, "\(result.stderr)")
    // The first block also holds what `open` ran before any command.
    for block in blocks.dropFirst() {
      #expect(block.traced.sorted() == block.logged.sorted(), "\(block)")
      #expect(Self.number(before: "statement", in: block.timing) == block.logged.count)
    }
    #expect(blocks[0].traced.isEmpty)
    #expect(Self.number(before: "statement", in: blocks[0].timing) == 0, "show task runs none")
    // inspect: the actor and the count of its films; the films themselves are not fetched.
    // On SQLite, first the tables' columns and keys, read when the model first needs them.
    let catalog = blocks[1].traced.filter { $0.contains("FROM sqlite_master") }
    #expect(catalog.count == (server == .sqlite ? 2 : 0), "\(blocks[1].traced)")
    let inspect = blocks[1].traced.filter { !$0.contains("FROM sqlite_master") }
    #expect(inspect.count == 2, "\(blocks[1].traced)")
    #expect(inspect.first?.contains("\"actor\" t0 WHERE") == true)
    #expect(inspect.last?.hasPrefix("SELECT count(*)") == true)
    #expect(blocks[2].timing.hasSuffix(" · 2 rows"), "\(blocks[2].timing)")
    #expect(blocks[3].timing.hasSuffix(" · 1 row"), "SEAN: \(blocks[3].timing)")
    #expect(!blocks[1].timing.contains(" row"), "inspect shows no list rows")
    #expect(blocks[4].traced.count == 1)
    #expect(blocks[4].traced[0].hasPrefix("SELECT count(*)"))
    #expect(!result.stderr.contains("'G'") && !result.stderr.contains("GUINESS"), "no values")
    #expect(result.stdout.contains("PENELOPE"))
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"), arguments: TestServer.available)
  func jsonLinesOnStderr(server: TestServer) throws {
    let result = try BinaryTests().run([
      try database(server), "--format", "json", "--timing", "--trace", "-c",
      "list Film where rating = 'G' order by title limit 3",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let objects = try result.stderr.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
    let timing = try #require(objects.last?["timing"] as? [String: Any])
    let statements = objects.filter { $0["sql"] != nil }
    #expect(statements.count == timing["statements"] as? Int)
    #expect(statements.count >= 2, "the rows and their count")
    #expect(statements.allSatisfy { $0["bound"] is Int && $0["ms"] != nil })
    #expect(timing["rows"] as? Int == 3)
    let lookups = try #require(
      objects.first { $0["lookups"] != nil }?["lookups"] as? [[String: Any]])
    #expect(lookups.compactMap { $0["count"] as? Int }.reduce(0, +) == timing["lookups"] as? Int)
    #expect(lookups.allSatisfy { ($0["rules"] as? [[String: Any]])?.isEmpty == false })
  }

  @Test(.enabled(if: enabled, "build d2s-repl first"))
  func checkTranscriptsRunWithBothOff() throws {
    let database = try SakilaSQLite.copy()
    let path = try RuleToolsTests.ruleFile(
      """
      > timing on
      > trace on
      > list Language order by name limit 2
      """, named: "timing.transcript")
    let updated = try BinaryTests().run([database, "--check", path, "--update", "--timing"])
    #expect(updated.status == 0, "\(updated.stderr)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("1–2 of 6 Language"))
    #expect(!text.contains(" ms"), "\(text)")
    let checked = try BinaryTests().run([database, "--check", path, "--timing", "--trace"])
    #expect(checked.status == 0, "\(checked.stdout)")
    #expect(checked.stderr.isEmpty)
  }
}
