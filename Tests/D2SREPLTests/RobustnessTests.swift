import D2STesting
import Testing

@testable import D2SREPL

/// Thousands of malformed lines: every one is a clean error or a harmless command, never a
/// crash.
@Suite struct RobustnessTests {
  @Test func malformedLinesNeverCrash() throws {
    let session = try REPLSession(width: 80, defaultLimit: 2)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    let valid = [
      "list Film where title like 'A*' order by title desc limit 3", "inspect Film 1", "show title",
      "explain component",
      "rule task = 'list' => title = 'x'", "edit Actor 1", "object.firstName = 'X'", "revert",
      "entities",
      "list Customer where address.city.city = 'London'", "readOnlyEntityNames = ('Staff')",
      "follow filmActors",
    ]
    var random = SplitMix64(seed: 1)
    let alphabet = Array(
      "abcdefghijklmnopqrstuvwxyz ()[]{}'\"=<>!*?.,;#\\-0123456789\u{0}\u{7f}é✓\t")
    var count = 0
    for _ in 0..<3_000 {
      var line: String
      switch random.next(4) {
      case 0:
        line = String((0..<random.next(40)).map { _ in alphabet[random.next(alphabet.count)] })
      case 1:
        let base = valid[random.next(valid.count)]
        line = String(base.prefix(random.next(base.count + 1)))
      case 2:
        var chars = Array(valid[random.next(valid.count)])
        for _ in 0..<3 where !chars.isEmpty {
          chars[random.next(chars.count)] = alphabet[random.next(alphabet.count)]
        }
        line = String(chars)
      default:
        line = valid[random.next(valid.count)]
      }
      _ = try? session.run(line)
      count += 1
    }
    // After all that the session still works.
    _ = try? session.run("revert")
    #expect(try session.run("list Language limit 1").contains("English"))
    #expect(count == 3_000)
  }

  @Test func hugeLinesAndNumbersAreCleanErrors() throws {
    let session = try REPLSession()
    #expect(throws: REPLError.self) {
      try session.run("show " + String(repeating: "x", count: 2 << 20))
    }
    #expect(throws: (any Error).self) { try session.run("list Film limit 99999999999999999999") }
    #expect(throws: (any Error).self) { try session.run("title = 99999999999999999999999") }
  }
}
