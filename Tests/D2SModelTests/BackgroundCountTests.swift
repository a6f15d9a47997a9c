import Testing

@testable import D2SModel

/// A background count's ending, and its projection of how long it has left.
@Suite struct BackgroundCountTests {
  @Test func anEndedCountGivesItsTotalToEveryWait() {
    let count = BackgroundCount()
    count.add(7)
    count.end(total: 7)
    #expect(count.wait(upTo: .zero) == 7)
    #expect(count.wait(upTo: .milliseconds(1)) == 7)
    #expect(count.reached == 7)
  }

  @Test func aRunningCountHasNoTotalAndProjectsItsRest() {
    let count = BackgroundCount()
    #expect(count.remaining == nil, "nothing known yet")
    count.add(10)
    #expect(count.wait(upTo: .milliseconds(1)) == nil)
    count.progressed(0.25)
    let remaining = count.remaining
    // A quarter walked: three times as long again as it took so far (never less).
    #expect(remaining.map { $0 > .zero } == true)
    count.progressed(1)
    #expect(count.remaining == .zero)
    count.cancel()
    #expect(count.isCancelled)
  }
}
