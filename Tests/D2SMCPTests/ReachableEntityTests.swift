import D2SApplication
import D2STesting
import Foundation
import Testing

@testable import D2SMCP

/// `visibleEntityNames` is presentation for agents too: the `entities` tool lists the demo's
/// five, and every tool takes any entity the user may reach, as the web's URLs do (`/Rental/76`).
/// Before, an agent that followed a customer's rentals could not inspect one ("no entity
/// Rental here"), and no tool took Language.
@Suite struct ReachableEntityTests {
  @Test func anyReachableEntityIsTakenAndOnlyTheListedAreListed() throws {
    var app = try D2SApp()
    _ = try app.open(try SakilaSQLite.copy(), readOnly: true)
    _ = try app.loadRules(atPath: MCPClientTests.demoRules)
    let tools = AgentTools(pages: app.pages, user: nil)
    let listed = try #require(tools.call("entities", [:]))
    #expect(listed.structured?.contains("Customer") == true)
    #expect(listed.structured?.contains("Rental") == false, "\(listed)")
    let rental = try #require(tools.call("inspect", ["entity": "Rental", "key": 76]))
    #expect(rental.error == nil, "\(rental)")
    let language = try #require(tools.call("list", ["entity": "Language"]))
    #expect(language.error == nil && language.structured?.contains("English") == true)
    #expect(tools.reachableEntityNames.contains("Rental"))
  }
}
