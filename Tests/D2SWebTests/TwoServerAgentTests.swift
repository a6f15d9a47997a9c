import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SWeb

/// Agents' tokens and proposals are kept where sessions are: with `--shared-sessions`, a token
/// made on one server calls `/-/mcp` on the other, a proposal made through one is decided on
/// the other (once), and a revoke on either ends the token on both.
@Suite(.serialized) struct TwoServerAgentTests {
  /// A JSON-RPC `tools/call` of `edit` on Film 1's length, as an agent sends it.
  static func proposeLength(_ base: String, token: String, _ length: Int) throws -> HTTPAnswer {
    try LoopbackHTTP.request(
      "POST", base + "/-/mcp",
      body: Data(
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"edit","arguments":{"entity":"Film","key":1,"values":{"length":\#(length)}}}}"#
          .utf8),
      headers: [
        ("Accept", "application/json, text/event-stream"), ("Authorization", "Bearer " + token),
      ])
  }

  static func length(_ conninfo: String) throws -> String {
    var value = ""
    try PostgreSQLAdaptor(url: conninfo).query(
      SQLStatement(raw: "SELECT length::text FROM film WHERE film_id = 1"), columns: [nil]
    ) { value = $0[0].stringValue ?? "" }
    return value
  }

  @Test(.enabled(if: TwoServerTests.canRun), .timeLimit(.minutes(2)))
  func tokensAndProposalsCrossServers() throws {
    let conninfo = try PostgresSakila.copy()
    let (first, a, second, b) = try TwoServerTests.startTwo(conninfo)
    defer { first.stop() }
    defer { second.stop() }

    // Mike makes a proposing token on A.
    let mike = LoopbackBrowser()
    #expect(try mike.login(a, "Mike", "12345").status == 303)
    #expect(try mike.get(a + "/").text.contains(#"<a href="/-/tokens">Agent tokens</a>"#))
    let page = try mike.get(a + "/-/tokens")
    let made = try mike.post(
      a + "/-/tokens",
      [
        ("_csrf", WebClient.csrf(page.text, form: "edit") ?? ""), ("action", "make"),
        ("scope", "propose"), ("label", "shared"),
      ])
    let token = try #require(
      made.text.range(of: #"d2s_[A-Za-z0-9_-]+"#, options: .regularExpression).map {
        String(made.text[$0])
      })
    let before = try Self.length(conninfo)

    // The agent calls B with it; the proposal waits on either server.
    let proposed = try Self.proposeLength(b, token: token, 99)
    #expect(proposed.status == 200, "\(proposed.text)")
    let path = try #require(
      proposed.text.range(of: #"/-/proposals/[A-Za-z0-9_-]+"#, options: .regularExpression).map {
        String(proposed.text[$0])
      })
    #expect(try Self.length(conninfo) == before, "nothing changes before a person decides")
    let onA = try mike.get(a + path)
    #expect(onA.status == 200 && onA.text.contains("99"), "\(onA.text.prefix(300))")
    let onB = try mike.get(b + path)
    let approved = try mike.post(
      a + path,
      [("_csrf", WebClient.csrf(onA.text, form: "proposal") ?? ""), ("action", "approve")]
    )
    #expect(approved.status == 303)
    #expect(try Self.length(conninfo) == "99")
    // Decided once, whichever server is asked next.
    let again = try mike.post(
      b + path,
      [("_csrf", WebClient.csrf(onB.text, form: "proposal") ?? ""), ("action", "approve")]
    )
    #expect(again.status == 409)

    // B lists the token made on A and revokes it: A refuses it from then on.
    let list = try mike.get(b + "/-/tokens")
    #expect(list.text.contains("shared"))
    let hash = try #require(
      list.text.components(separatedBy: #"name="token" value=""#).dropFirst().first.map {
        String($0.prefix { $0 != "\"" })
      })
    let revoked = try mike.post(
      b + "/-/tokens",
      [
        ("_csrf", WebClient.csrf(list.text, form: "inline") ?? ""), ("action", "revoke"),
        ("token", hash),
      ])
    #expect(revoked.status == 200)
    #expect(try Self.proposeLength(a, token: token, 98).status == 401)
    // The tables are D2S's own: no entity, no page.
    #expect(try mike.get(a + "/AgentToken").status == 404)
    #expect(try mike.get(a + "/Proposal").status == 404)
  }
}
