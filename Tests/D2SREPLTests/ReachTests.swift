import D2SREPL
import D2STesting
import Testing

/// Reach is a permission (`isEntityReachable`), and the REPL keeps it as the web does: no
/// page, path, action or suggestion leads into an entity out of reach; `visibleEntityNames`
/// only shortens the entity list.
@Suite struct ReachTests {
  static func session(_ rules: [String]) throws -> REPLSession {
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(try SakilaSQLite.copy()))
    for rule in rules { _ = try session.run("rule " + rule) }
    return session
  }

  @Test func anUnreachableEntityHasNoPageNoPathAndNoAction() throws {
    let session = try Self.session(["entity.name = 'Payment' => isEntityReachable = false"])
    #expect(session.failure(of: "list Payment") == "no entity named Payment")
    #expect(session.failure(of: "inspect Payment 1") == "no entity named Payment")
    #expect(session.failure(of: "list Paymnt").contains("Payment") == false, "never suggested")
    #expect(
      session.failure(of: "list Customer where payments.amount > 10")
        == "Customer has no property 'payments'")
    let customer = try session.run("inspect Customer 1")
    #expect(!customer.contains("follow payments"))
    #expect(customer.contains("follow rentals"))
    #expect(session.failure(of: "follow payments") == "Customer has no property 'payments'")
    #expect(!(try session.run("entities")).contains("Payment"))
  }

  @Test func reachDependsOnTheUser() throws {
    let session = try Self.session([
      "user = nil AND entity.name = 'Staff' => isEntityReachable = false"
    ])
    #expect(session.failure(of: "list Staff").hasPrefix("no entity named Staff"))
    _ = try session.run("login Mike 12345")
    #expect(try session.run("list Staff").contains("Hillyer"))
  }

  @Test func visibleEntityNamesOnlyShortensTheEntityList() throws {
    let session = try Self.session(["*true* => visibleEntityNames = ('Film')"])
    #expect(!(try session.run("entities")).contains("Language"))
    #expect(try session.run("list Language").contains("English"))
    #expect(try session.run("inspect Film 1").contains("English"))
  }

  @Test func withoutARuleEveryEntityHasTheContextsOwnAnswer() throws {
    let session = try Self.session([])
    let all = try session.run("entities")
    #expect(all.contains("Payment") && all.contains("Staff"))
    _ = try session.run("isEntityReachable = false")
    #expect(session.failure(of: "list Payment") == "no entity named Payment")
    #expect(!(try session.run("entities")).contains("Staff"))
    _ = try session.run("unset isEntityReachable")
    #expect(try session.run("entities").contains("Staff"))
    // A rule added after answers for its entity only.
    _ = try session.run("rule entity.name = 'Payment' => isEntityReachable = false")
    #expect(session.failure(of: "list Payment") == "no entity named Payment")
    #expect(!(try session.run("entities")).contains("Payment"))
    #expect(try session.run("list Language limit 1").contains("English"))
  }
}
