import Testing

@testable import D2SREPL

/// The command line's fast path parses the plain forms exactly as ArgumentParser does, hands
/// everything else to it, and sets every property the command has.
@Suite struct FastPathTests {
  /// Every property, as text, to compare two parses.
  static func fields(_ command: REPLOptions) -> String {
    let c = command
    return
      "\(String(describing: c.database)) \(c.ruleFiles) \(c.commands) \(String(describing: c.script)) \(c.bail) \(c.demo) \(c.reset) \(String(describing: c.width)) \(String(describing: c.format)) \(c.readOnly) \(String(describing: c.check)) \(c.update) \(c.lint) \(c.coverage) \(c.timing) \(c.trace) \(c.version)"
  }

  @Test(arguments: [
    ["sakila.db"], [], ["sakila.db", "-c", "entities"],
    ["db.sqlite", "-c", "list Film limit 2", "-c", "next", "--format", "json", "--width", "80"],
    ["postgresql://me@localhost/sakila", "-f", "script.d2s", "--bail", "--read-only"],
    ["--demo", "--reset", "--rules", "a.d2s", "--rules", "b.d2s", "--timing", "--trace"],
    ["db", "--check", "t.transcript", "--update"], ["--lint", "--rules", "r.d2s", "db"],
    ["db", "--coverage", "-c", "list Film where title like 'A*'"],
  ])
  func plainFormsParseAsArgumentParserDoes(arguments: [String]) throws {
    let fast = try #require(D2SREPLCommand.parseFast(arguments))
    let parsed = try #require(try D2SREPLCommand.parseAsRoot(arguments) as? D2SREPLCommand)
    #expect(Self.fields(fast) == Self.fields(REPLOptions(parsed)))
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["--version"], ["--width=80"], ["--width", "eighty"], ["-c"],
    ["db", "-c", "-x"], ["a.db", "b.db"], ["db", "-f", "a", "-f", "b"], ["--bail", "--bail"],
    ["db", "--unknown"], ["db", "--"],
  ])
  func otherFormsGoToArgumentParser(arguments: [String]) {
    #expect(D2SREPLCommand.parseFast(arguments) == nil)
  }

  @Test func everyPropertyIsSet() {
    func names(_ value: Any) -> [String] {
      Mirror(reflecting: value).children.compactMap { child in
        child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
      }.sorted()
    }
    // The options hold every option of the command, and the fast path sets each.
    #expect(names(D2SREPLCommand()) == D2SREPLCommand.fastPathProperties.sorted())
    #expect(names(REPLOptions()) == D2SREPLCommand.fastPathProperties.sorted())
  }
}
