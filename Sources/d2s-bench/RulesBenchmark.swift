import EnvKeys
import RuleCore

#if canImport(Glibc)
  import Glibc
#endif

/// The `rules` suite: lookups of `displayNameForProperty` over 1,000 and 10,000 rules of the
/// form `propertyKey = 'pN' => displayNameForProperty = 'PN'`, uncached and cached, against a
/// `Dictionary<String, String>` lookup, all measured in the same run.
enum RulesBenchmark {
  enum PropertyKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum DisplayNameForProperty: DynamicEnvironmentKey { static var defaultValue: String { "" } }

  /// Lookups per timed run: the same 1,000 property keys, spread over the whole rule set.
  static let sampleKeys = 1_000

  static func run() throws {
    let registry = D2SContextKVC()
    try registry.expose(PropertyKey.self, "propertyKey")
    try registry.expose(DisplayNameForProperty.self, "displayNameForProperty")

    var measurement = Measurement()
    for count in [1_000, 10_000] {
      let (uncached, cached) = try contexts(rules: count, registry: registry)
      if let profile = getenv("D2S_BENCH_PROFILE").map({ String(cString: $0) }), count == 10_000 {
        // Spin one kind of lookup for a profiler: D2S_BENCH_PROFILE=cached|uncached.
        let chosen = profile == "cached" ? cached : uncached
        for _ in 0..<2_000 { lookUp(chosen) }
        exit(0)
      }
      measurement.add("uncached \(count)", operations: sampleKeys * 4) {
        lookUp(uncached, times: 4)
      }
      measurement.add("cached \(count)", operations: sampleKeys * 20) { lookUp(cached, times: 20) }
    }
    var dictionary: [String: String] = [:]
    for n in 1...10_000 { dictionary["p\(n)"] = "P\(n)" }
    let keys = (0..<sampleKeys).map { "p\($0 * 10 + 1)" }
    measurement.add("dictionary", operations: sampleKeys * 20) {
      var total = 0
      for _ in 0..<20 { for key in keys { total &+= dictionary[key]?.utf8.count ?? 0 } }
      blackHole(total)
    }

    let ns = measurement.run()
    print(
      "rules: displayNameForProperty over N rules \"propertyKey = 'pN' => displayNameForProperty = 'PN'\""
    )
    print(pad("N", 9) + pad("uncached", 14) + pad("(ns)", 10) + pad("cached", 14) + "(ns)")
    for count in [1_000, 10_000] {
      let u = ns["uncached \(count)"] ?? .nan
      let c = ns["cached \(count)"] ?? .nan
      print(
        pad("\(count)", 9) + pad(perSecond(u), 14) + pad(format(u), 10) + pad(perSecond(c), 14)
          + format(c))
    }
    let d = ns["dictionary"] ?? .nan
    print("baseline Dictionary<String, String> lookup: \(perSecond(d)) (\(format(d)) ns)")
    let growth = (ns["uncached 10000"] ?? .nan) / (ns["uncached 1000"] ?? .nan)
    let cachedRatio = (ns["cached 10000"] ?? .nan) / d
    print(
      "ratio uncached lookup cost, 10,000 / 1,000 rules: \(format(growth, decimals: 2)) (goal ≤ 1.5)"
    )
    print(
      "ratio cached lookup / dictionary lookup:         \(format(cachedRatio, decimals: 2)) (goal ≤ 5)"
    )
  }

  /// Contexts with `propertyKey` set, over engines without and with the cache (warmed).
  static func contexts(rules count: Int, registry: D2SContextKVC) throws -> (
    [RuleContext], [RuleContext]
  ) {
    let text = (1...count).map { "propertyKey = 'p\($0)' => displayNameForProperty = 'P\($0)'" }
      .joined(separator: "\n")
    let model = RuleModel(try RuleParser(registry: registry).parseRules(text))
    let step = count / sampleKeys
    let keys = (0..<sampleKeys).map { "p\($0 * step + 1)" }
    func make(_ engine: RuleEngine) -> [RuleContext] {
      keys.map { RuleContext(engine: engine).with(PropertyKey.self, $0) }
    }
    let uncached = make(try RuleEngine(ruleModel: model, registry: registry, cache: false))
    let cached = make(try RuleEngine(ruleModel: model, registry: registry, cache: true))
    lookUp(cached)
    return (uncached, cached)
  }

  static func lookUp(_ contexts: [RuleContext], times: Int = 1) {
    var total = 0
    for _ in 0..<times {
      for context in contexts { total &+= context[DisplayNameForProperty.self].utf8.count }
    }
    blackHole(total)
  }
}
