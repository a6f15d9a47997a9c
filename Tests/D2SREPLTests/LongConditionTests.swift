import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// A filter of many conditions joined by one operator runs: 1,500 `and`s or `or`s are written
/// as nested halves, not one chain that SQLite's parser nests 1,500 deep (its expression
/// depth limit is 1,000). Before, such a list failed with "Expression tree is too large".
@Suite struct LongConditionTests {
  @Test func manyConditionsRun() throws {
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    let ands = Array(repeating: "length > 0", count: 1_500).joined(separator: " and ")
    let all = try session.run("list Film where \(ands) limit 1")
    #expect(all.contains("1000 Film") || all.contains("1,000 Film"), "\(all.suffix(200))")
    let ors = (1...1_500).map { "length = \($0 % 200)" }.joined(separator: " or ")
    let some = try session.run("list Film where \(ors) limit 1")
    #expect(some.contains("Film"), "\(some.suffix(200))")
  }
}
