import Foundation
import Testing

/// Every Swift snippet of the README and the guides is checked. An excerpt (its first line
/// names the file, `// Plugins/Examples/…/X.swift`) is found in that file, line by line, in
/// order; a package manifest is left out; every other snippet is compiled, and run when it
/// is statements, by the consumer package's `SnippetTests`, from a file generated out of the
/// documents (`Consumer/Tests/SnippetTests/Snippets.swift`). This test fails when that file
/// is not what the documents give now: `D2S_UPDATE_SNIPPETS=1 swift test --filter
/// DocumentationSnippetTests` rewrites it.
///
/// A comment on the line before a snippet says how it is compiled: by default its
/// declarations go into a namespace of their own; `<!-- snippet: statements -->` runs it as a
/// test (`; before: CODE` runs CODE first); `<!-- snippet: compile-only … -->` compiles it
/// as a function that is never called.
@Suite struct DocumentationSnippetTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let generated = "Consumer/Tests/SnippetTests/Snippets.swift"

  /// A ```swift block: where it is, the comment before it, its lines.
  struct Snippet {
    var file: String
    var line: Int
    var marker: String?
    var code: [String]
  }

  /// The documents whose snippets are checked.
  static func documents() throws -> [String] {
    let folder = root.appendingPathComponent("Documentation")
    let guides = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    // The one module guide with a snippet that runs.
    return ["README.md"] + guides + ["Sources/D2STesting/D2STesting.docc/D2STesting.md"]
  }

  static func snippets() throws -> [Snippet] {
    var found: [Snippet] = []
    for document in try documents() {
      let text = try String(
        contentsOf: root.appendingPathComponent(document), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        String($0.hasSuffix("\r") ? $0.dropLast() : $0)
      }
      var index = 0
      while index < lines.count {
        guard lines[index].trimmingCharacters(in: .whitespaces).lowercased() == "```swift" else {
          index += 1
          continue
        }
        let previous = index > 0 ? lines[index - 1] : ""
        let marker =
          previous.hasPrefix("<!-- snippet:") && previous.hasSuffix("-->")
          ? String(previous.dropFirst("<!-- snippet:".count).dropLast(3))
            .trimmingCharacters(in: .whitespaces) : nil
        var end = index + 1
        while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
          end += 1
        }
        found.append(
          Snippet(
            file: document, line: index + 2, marker: marker, code: Array(lines[(index + 1)..<end])))
        index = end + 1
      }
    }
    return found
  }

  /// The file an excerpt names on its first line (`// Plugins/…/X.swift`), or nil for a
  /// snippet that is no excerpt.
  static func excerptSource(_ snippet: Snippet) -> String? {
    guard let first = snippet.code.first, first.hasPrefix("// ") else { return nil }
    let path = String(first.dropFirst(3)).trimmingCharacters(in: .whitespaces)
    guard path.hasSuffix(".swift"), path.contains("/"), !path.contains(" ") else { return nil }
    return path
  }

  /// The excerpt's lines missing from its file, in order (blank lines and `// …` skipped).
  static func missingLines(of snippet: Snippet, in path: String) throws -> [String] {
    let source = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var position = 0
    var missing: [String] = []
    for line in snippet.code.dropFirst().map({ $0.trimmingCharacters(in: .whitespaces) })
    where !line.isEmpty && line != "// …" {
      if let found = source[position...].firstIndex(of: line) {
        position = found + 1
      } else {
        missing.append(line)
      }
    }
    return missing
  }

  /// The consumer package's test file for the snippets that are compiled.
  static func generatedFile() throws -> String {
    let baseImports = [
      "AuditKeys", "Components", "D2SModel", "D2SREPL", "D2STesting", "D2SWeb", "EnvKeys",
      "Foundation", "Plugins", "Qualifiers", "RatingComponents", "RuleCore", "SQLiteAdaptor",
      "TSVPlatform", "Testing",
    ]
    var imports = Set(baseImports)
    var body: [String] = []
    for (number, snippet) in try snippets().enumerated() {
      if excerptSource(snippet) != nil { continue }
      if snippet.code.first?.hasPrefix("// swift-tools-version") == true { continue }
      let name = "snippet\(number + 1)"
      let lines = snippet.code.filter { !$0.hasPrefix("import ") }
      for line in snippet.code where line.hasPrefix("import ") {
        imports.insert(String(line.dropFirst("import ".count)))
      }
      let indented = lines.map { $0.isEmpty ? "" : "  " + $0 }
      body.append("")
      body.append("// \(snippet.file):\(snippet.line)")
      let marker = snippet.marker ?? ""
      if marker.hasPrefix("statements") {
        body.append("@Test func \(name)() async throws {")
        if let range = marker.range(of: "before:") {
          for statement in marker[range.upperBound...].split(separator: ";") {
            body.append("  " + statement.trimmingCharacters(in: .whitespaces))
          }
        }
        body += indented
        body.append("}")
      } else if marker.hasPrefix("compile-only") {
        body.append("func \(name)() async throws {")
        body += indented
        body.append("}")
      } else {
        let namespace = "Snippet\(number + 1)"
        body.append("enum \(namespace) {")
        body += indented
        body.append("}")
        body.append("@Test func \(name)() { #expect(\(namespace).self == \(namespace).self) }")
      }
    }
    let header = [
      "// swift-format-ignore-file",
      "// Generated from the Swift snippets of README.md and Documentation/*.md by",
      "// Tests/D2STestingTests/DocumentationSnippetTests.swift: do not edit; rewrite it with",
      "// D2S_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests.",
    ]
    return (header + imports.sorted().map { "import " + $0 } + body).joined(separator: "\n")
      + "\n"
  }

  @Test func excerptsAreInTheFilesTheyName() throws {
    let excerpts = try Self.snippets().filter { Self.excerptSource($0) != nil }
    #expect(excerpts.count >= 8)
    for snippet in excerpts {
      let path = try #require(Self.excerptSource(snippet))
      guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path)
      else {
        Issue.record("\(snippet.file):\(snippet.line): names \(path), which does not exist")
        continue
      }
      let missing = try Self.missingLines(of: snippet, in: path)
      #expect(missing.isEmpty, "\(snippet.file):\(snippet.line): not in \(path): \(missing)")
    }
  }

  @Test func theConsumerPackageCompilesEveryOtherSnippet() throws {
    let expected = try Self.generatedFile()
    let url = Self.root.appendingPathComponent(Self.generated)
    if ProcessInfo.processInfo.environment["D2S_UPDATE_SNIPPETS"] == "1" {
      try expected.write(to: url, atomically: true, encoding: .utf8)
    }
    let current = try? String(contentsOf: url, encoding: .utf8)
    #expect(
      current == expected,
      "\(Self.generated) is not what the documents give: rewrite it with D2S_UPDATE_SNIPPETS=1 swift test --filter DocumentationSnippetTests"
    )
  }

  @Test func aSnippetMissingFromItsFileIsFound() throws {
    let snippet = Snippet(
      file: "test", line: 1, marker: nil,
      code: ["// Plugins/Examples/AuditKeys/Sources/AuditKeys/AuditKeys.swift", "let x = 1"])
    let path = try #require(Self.excerptSource(snippet))
    #expect(try Self.missingLines(of: snippet, in: path) == ["let x = 1"])
  }
}
