import D2SModel
import D2STesting
import Foundation
import Qualifiers
import Testing

@testable import D2SREPL

/// Columns whose names hold dots, spaces, symbols, other scripts or reserved words are shown
/// and addressable; backticks quote a name in commands and rules, and what needs them prints
/// with them (`Fixtures/awkward-names.sql`).
@Suite struct AwkwardNameTests {
  func session(on server: TestServer) throws -> REPLSession {
    try FixtureSession.open("awkward-names", on: server, width: 160)
  }

  @Test(arguments: TestServer.available)
  func everyColumnIsShownAndNamed(server: TestServer) throws {
    let session = try session(on: server)
    let entity = try #require(try session.database.model.entity(named: "OddNames"))
    #expect(
      entity.attributes.map(\.name) == [
        "id", "nameWithAndSpaces", "order", "and", "user", "prix", "straße", "名前",
      ])
    let inspect = try session.run("inspect OddNames 1")
    for line in [
      "Name With And Spaces  puma", "Order                 2", "Prix                  9.50",
      "名前" + String(repeating: " ", count: 18) + "山田",
    ] {
      #expect(inspect.contains(line), "\(line)")
    }
    let found = try session.run("list OddNames where nameWithAndSpaces = 'puma'")
    #expect(found.contains("puma") && !found.contains("lynx"))
    let ordered = try session.run(
      "list OddNames where `and` = 'y' or `user` = 'ada' order by `order`")
    let lines = ordered.split(separator: "\n").map(String.init)
    #expect(lines.firstIndex { $0.hasPrefix("lynx") }! < lines.firstIndex { $0.hasPrefix("puma") }!)
    #expect(try session.run("list OddNames where 名前 = '田中'").contains("lynx"))
    _ = try session.run("edit OddNames 2")
    _ = try session.run("object.order = 5")
    #expect(try session.run("save") == "saved OddNames 2")
    #expect(try session.run("list OddNames where `order` = 5").contains("lynx"))
  }

  @Test func backtickedNamesPrintAndParseBackToThemselves() throws {
    // Typed, and printed: backticks only where a name needs them.
    for (text, printed) in [
      ("`order` = 1", "order = 1"),
      ("`and` = 'x' AND `user` != nil", "`and` = 'x' AND user != nil"),
      ("address.`zip code` like 'A*'", "address.`zip code` like 'A*'"),
      ("`name with . and spaces` = 'puma'", "`name with . and spaces` = 'puma'"),
      ("`2nd` = `order`", "`2nd` = order"), ("`not`.`in` = `is`", "`not`.`in` = `is`"),
      ("a.`@x y` = 1", "a.`@x y` = 1"), ("a.`@count` > 1", "a.@count > 1"),
      ("`@count` = 1", "`@count` = 1"),  // a fuzz finding: first, `@x` is a computation
    ] {
      let qualifier = try QualifierParser.parse(text)
      #expect(qualifier.description == printed)
      #expect(try QualifierParser.parse(qualifier.description) == qualifier, "\(printed)")
    }
    let path = try #require(
      {
        if case .comparison(let path, _, _) = try QualifierParser.parse(
          "`name with . and spaces` = 1")
        {
          return path
        }
        return nil
      }())
    #expect(path.components == ["name with . and spaces"])
    #expect(throws: ParseError.self) { try QualifierParser.parse("`order = 1") }
    // A fuzz finding: `@` only starts a component, as after a bare name.
    #expect(throws: ParseError.self) { try QualifierParser.parse("`t`.@@") }
    #expect(throws: ParseError.self) { try QualifierParser.parse("t.@@") }
    // A fuzz finding: a dot before a combining mark is one Character but two scalars; paths
    // split at the scalar, as the lexer reads them.
    let marked = try QualifierParser.parse("a.b\u{584}.\u{5BC}h.c = `x y`.z")
    #expect(try QualifierParser.parse(marked.description) == marked)
    #expect(KVCPath("b\u{584}.\u{5BC}h").components == ["b\u{584}", "\u{5BC}h"])
    // And a number as a component (`items.1`), in backticks after a backticked one.
    for text in ["a.1.b", "`a b`.1.c", "a.`1`.`x y`.2", "a.\u{5BC}.1.b", "a.\u{5BC}.`1`.b"] {
      let parsed = try QualifierParser.parse(text)
      #expect(try QualifierParser.parse(parsed.description) == parsed, "\(text)")
    }
  }
}
