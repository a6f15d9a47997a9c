import Testing

@testable import RuleCore

/// The rule engine's hash table against `Dictionary`, with keys that collide.
@Suite struct ProbeTableTests {
  /// A key whose hash keeps only a few bits: long probe chains.
  struct Crowded: Hashable {
    let number: Int
    func hash(into hasher: inout Hasher) { hasher.combine(number % 3) }
  }

  @Test(arguments: [0, 1, 5, 100, 2_000])
  func setsAndLooksUpAsADictionary(keys: Int) {
    var table = ProbeTable<Crowded, String>()
    var expected: [Crowded: String] = [:]
    var generator = SystemRandomNumberGenerator()
    for step in 0..<(keys * 3 + 10) {
      let key = Crowded(number: Int.random(in: 0...max(keys, 1), using: &generator))
      if step % 3 == 0 {
        #expect(table[key] == expected[key], "\(key)")
      } else {
        table.set("value \(step)", for: key)
        expected[key] = "value \(step)"
      }
      #expect(table.count == expected.count)
    }
    for (key, value) in expected { #expect(table[key] == value) }
    #expect(table[Crowded(number: -1)] == nil)
  }

  @Test func removeAllEmptiesTheTableForNewValues() {
    var table = ProbeTable<Int, Int>()
    for n in 0..<100 { table.set(n * n, for: n) }
    table.removeAll()
    #expect(table.count == 0)
    #expect(table[5] == nil)
    table.set(1, for: 5)
    #expect(table[5] == 1 && table.count == 1)
  }
}
