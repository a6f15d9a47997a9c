/// Interleaved timing: every case runs once per round, for many rounds, and each case keeps
/// its best (least disturbed) nanoseconds per operation. Interleaving spreads machine noise
/// evenly over the cases that the ratios compare.
struct Measurement {
  struct Case {
    let name: String
    let operations: Int
    let body: () -> Void
  }
  private(set) var cases: [Case] = []

  mutating func add(_ name: String, operations: Int, _ body: @escaping () -> Void) {
    cases.append(Case(name: name, operations: operations, body: body))
  }

  /// Best nanoseconds per operation of each case, by name.
  func run(rounds: Int = 25) -> [String: Double] {
    let clock = ContinuousClock()
    var best: [String: Double] = [:]
    for _ in 0..<rounds {
      for item in cases {
        let elapsed = clock.measure(item.body)
        let nanoseconds =
          Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        best[item.name] = min(best[item.name] ?? .infinity, nanoseconds / Double(item.operations))
      }
    }
    return best
  }
}

/// Keeps results alive so the optimiser cannot drop the measured work.
@inline(never)
func blackHole<T>(_ value: T) {
  withUnsafePointer(to: value) { _ in }
}

func format(_ value: Double, decimals: Int = 1) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return decimals == 0 ? String(Int(rounded)) : String(rounded)
}

func perSecond(_ nanoseconds: Double) -> String {
  let value = 1e9 / nanoseconds
  if value >= 1e6 { return format(value / 1e6, decimals: 2) + " M/s" }
  return format(value / 1e3, decimals: 1) + " k/s"
}

func pad(_ text: String, _ width: Int) -> String {
  text + String(repeating: " ", count: max(1, width - text.count))
}
