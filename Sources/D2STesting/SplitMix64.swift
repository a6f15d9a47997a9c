/// A small seeded random number generator (SplitMix64), for generated test inputs that are
/// the same in every run: fuzzing a rule model, a parser or a REPL with a fixed seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (0 when `bound` is not positive).
  public mutating func next(_ bound: Int) -> Int {
    bound > 0 ? Int(next() % UInt64(bound)) : 0
  }
}
