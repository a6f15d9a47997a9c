import Foundation
import Testing

@testable import D2SWeb

/// Session ids' hashes and tokens' base64url, written byte by byte, read as the standards say.
@Suite struct SessionEncodingTests {
  @Test func aSessionIdsHashIsItsSHA256InLowercaseHex() {
    #expect(
      MemorySessionStore.hash(of: "abc")
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      MemorySessionStore.hash(of: "")
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }

  @Test func base64URLRoundTripsAndRefusesTheStandardAlphabet() {
    var generator = SystemRandomNumberGenerator()
    for count in 0..<40 {
      let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
      let text = SessionKeys.base64URL(data)
      #expect(!text.contains("+") && !text.contains("/") && !text.contains("="))
      #expect(SessionKeys.data(base64URL: Substring(text)) == data)
    }
    // 0xfb 0xff: "+/8=" in the standard alphabet, "-_8" in base64url.
    #expect(SessionKeys.base64URL(Data([0xfb, 0xff])) == "-_8")
    #expect(SessionKeys.data(base64URL: "+/8") == nil)
    #expect(SessionKeys.data(base64URL: "-_8=") == Data([0xfb, 0xff]))
  }

  @Test func aSignedTokenIsOnePayloadAndOneSignature() throws {
    let keys = try SessionKeys(secret: Data(repeating: 7, count: 32))
    let token = keys.sign("session id")
    #expect(keys.verify(token) == "session id")
    let (payload, mac) = (token.prefix { $0 != "." }, token.drop { $0 != "." }.dropFirst())
    for forged in [
      "", ".", "\(payload).", ".\(mac)", "\(payload)\(mac)", "\(token).", "\(token).\(mac)",
      "\(payload)..\(mac)", "\(payload).x\(mac)", "x\(token)",
      try SessionKeys(secret: Data(repeating: 8, count: 32)).sign("session id"),
    ] {
      #expect(keys.verify(forged) == nil, "\(forged)")
    }
  }

  @Test func aSessionCookieHoldsTheThirdFormsId() throws {
    let keys = try SessionKeys(secret: Data(repeating: 7, count: 32))
    let id = String(repeating: "a", count: 43)
    #expect(WebSession.id(of: keys.sign("v3|" + id), keys: keys) == id)
    for payload in [
      "v2|" + id, "v3|" + id.dropFirst(), "v3|" + id + "|x", "v3" + id, "|" + id, "v3|", "",
      "V3|" + id,
    ] {
      #expect(WebSession.id(of: keys.sign(payload), keys: keys) == nil, "\(payload)")
    }
  }

  @Test func keptAnswersAreTheKeysOwn() throws {
    let keys = try SessionKeys(secret: Data(repeating: 7, count: 32))
    let other = try SessionKeys(secret: Data(repeating: 8, count: 32))
    let token = keys.sign("v3|" + String(repeating: "a", count: 43))
    for _ in 0..<2 {
      #expect(keys.verify(token) != nil)
      #expect(other.verify(token) == nil, "another key's answers are its own")
      #expect(keys.verify(token + "x") == nil)
    }
    let csrf = keys.token("csrf", boundTo: "s")
    #expect(keys.token("csrf", boundTo: "s") == csrf)
    #expect(keys.check(csrf, "csrf", boundTo: "s"))
    #expect(other.token("csrf", boundTo: "s") != csrf)
    #expect(keys.token("csrf", boundTo: "t") != csrf)
    #expect(keys.token("login", boundTo: "s") != csrf)
    // A question too long to keep is answered all the same.
    let long = String(repeating: "r", count: KeptAnswers.maximumLength + 1)
    #expect(keys.check(keys.token("row", boundTo: long), "row", boundTo: long))
  }
}
