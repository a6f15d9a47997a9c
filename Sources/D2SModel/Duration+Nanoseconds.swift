extension Duration {
  /// Whole nanoseconds: 0 for a negative duration, and `Int.max` for one too long to count
  /// (a rule's budget of 10¹³ ms, as someone who wants no limit writes), never a trap.
  package var saturatedNanoseconds: Int {
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    let (scaled, overflow) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .max }
    let (sum, carried) = scaled.addingReportingOverflow(Int(attoseconds / 1_000_000_000))
    return carried ? .max : sum
  }
}
