import Foundation
import Testing

@testable import D2SWeb

/// The one-time tokens of new-object forms: a second claim finds the first save, a saved
/// token is forgotten after ten minutes, and a full store forgets its oldest tokens.
@Suite struct OnceTokenTests {
  @Test func aTokenIsClaimedOnceAndRemembersWhatItsSaveMade() {
    let tokens = OnceTokens()
    let now = Date()
    let expiry = now + OnceTokens.lifetime
    #expect(tokens.claim("a", expiry: expiry, now: now) == .fresh)
    #expect(tokens.claim("a", expiry: expiry, now: now) == .pending)
    tokens.finish("a", path: "/Film/1001", now: now)
    #expect(tokens.claim("a", expiry: expiry, now: now + 60) == .done("/Film/1001"))
    #expect(
      tokens.claim("a", expiry: expiry, now: now + OnceTokens.doneLifetime + 1) == .fresh,
      "forgotten after ten minutes")
    tokens.release("a")
    #expect(tokens.claim("a", expiry: expiry, now: now) == .fresh, "released: may be sent again")
  }

  @Test func aFullStoreForgetsItsOldestTokens() {
    let tokens = OnceTokens()
    let now = Date()
    for index in 0..<OnceTokens.capacity {
      #expect(
        tokens.claim("t\(index)", expiry: now + 3600 + Double(index), now: now) == .fresh)
    }
    #expect(tokens.claim("new", expiry: now + 7200 + 1e6, now: now) == .fresh)
    #expect(tokens.claim("t0", expiry: now + 3600, now: now) == .fresh, "the oldest went")
    #expect(
      tokens.claim("t\(OnceTokens.capacity - 1)", expiry: now, now: now) == .pending,
      "the newest stayed")
  }
}
