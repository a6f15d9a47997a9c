import D2SModel
import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

/// `/-/mcp` in the built d2s-serve, over real HTTP: tokens made by a logged-in person at
/// `/-/tokens`, the Python MCP client over Streamable HTTP, scopes, no cookie and no foreign
/// Origin, revocation, and two clients sending the same JSON-RPC ids at once each getting
/// their own answers.
@Suite(.serialized) struct MCPOverHTTPTests {
  static var serveBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("d2s-serve")
  }

  /// A browser's side: cookies kept, forms posted with their CSRF token.
  final class Person {
    let base: String
    var cookies: [String: String] = [:]
    init(base: String) { self.base = base }

    func send(_ method: String, _ path: String, form: [(String, String)]? = nil) throws
      -> HTTPAnswer
    {
      let body = form.map { fields in
        Data(
          fields.map {
            "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
          }
          .joined(separator: "&").utf8)
      }
      let cookie = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
      let answer = try LoopbackHTTP.request(
        method, base + path, body: body, contentType: "application/x-www-form-urlencoded",
        headers: cookie.isEmpty ? [] : [("Cookie", cookie)])
      for header in answer.headers("Set-Cookie") {
        let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
        guard pair.count == 2 else { continue }
        cookies[String(pair[0])] = header.contains("Max-Age=0") ? nil : String(pair[1])
      }
      return answer
    }

    static func csrf(_ html: String) -> String {
      guard
        let range = html.range(of: #"name="_csrf" value="([^"]*)""#, options: .regularExpression)
      else { return "" }
      return String(html[range].dropFirst(#"name="_csrf" value=""#.count).dropLast())
    }

    /// Logs in and makes a token of `scope`; its text.
    func token(user: String, scope: String) throws -> String {
      let form = try send("GET", "/-/login")
      _ = try send(
        "POST", "/-/login",
        form: [
          ("_csrf", Self.csrf(form.text)), ("user", user), ("password", "12345"), ("next", "/"),
        ])
      let page = try send("GET", "/-/tokens")
      let made = try send(
        "POST", "/-/tokens",
        form: [
          ("_csrf", Self.csrf(page.text)), ("action", "make"), ("scope", scope),
          ("label", "test"),
        ])
      guard let range = made.text.range(of: #"d2s_[A-Za-z0-9_-]+"#, options: .regularExpression)
      else { throw TokenMissing() }
      return String(made.text[range])
    }
  }

  struct TokenMissing: Error {}

  /// The last name of customer `id` as stored.
  static func customer(_ database: String, _ id: Int) throws -> String {
    var name = ""
    try SQLiteAdaptor(path: database).query(
      SQLStatement(raw: "SELECT last_name FROM customer WHERE customer_id = \(id)"), columns: [nil]
    ) { name = $0[0].stringValue ?? "" }
    return name
  }

  /// A JSON-RPC call to `/-/mcp`.
  static func call(
    _ base: String, token: String?, _ body: String, origin: String? = nil
  ) throws -> HTTPAnswer {
    var headers: [(String, String)] = [("Accept", "application/json, text/event-stream")]
    if let token { headers.append(("Authorization", "Bearer " + token)) }
    if let origin { headers.append(("Origin", origin)) }
    return try LoopbackHTTP.request(
      "POST", base + "/-/mcp", body: Data(body.utf8), headers: headers)
  }

  @Test(.timeLimit(.minutes(5)))
  func agentsOverHTTPWithTokens() async throws {
    try #require(
      FileManager.default.fileExists(atPath: Self.serveBinary.path), "build d2s-serve first")
    let database = try MCPClientTests.database()
    let rules = try MCPClientTests.ruleFile(MCPClientTests.agentRules)
    let folder = try TestFolders.make("d2s-mcp-http")
    let server = try ChildProcess(
      Self.serveBinary.path,
      [
        database, "--rules", MCPClientTests.demoRules, "--rules", rules, "--port", "0",
        // Every attack string through every tool's arguments is more than 600 calls.
        "--agent-calls-per-minute", "5000",
      ],
      folder: folder)
    defer { server.stop() }
    let line = try await offThePool { try server.waitForLine(prefix: "listening on ", seconds: 30) }
    let base = try #require(line.map { String($0.dropFirst("listening on ".count)) })
    let mike = Person(base: base)
    let token = try mike.token(user: "Mike", scope: "write")

    // The Python client over Streamable HTTP.
    let report = try await offThePool {
      try MCPClientTests.report(arguments: [base + "/-/mcp", token])
    }
    #expect(report["schema_failures"] as? [String] == [])
    MCPClientTests.expectEntities(report, listed: ["Customer", "Actor", "Film", "Store", "Staff"])
    #expect(report["paged_rows"] as? Int == 178)
    #expect(MCPClientTests.answer(report, "stale_edit").text.contains("conflict: length"))
    #expect(!MCPClientTests.answer(report, "edit").error)
    #expect(report["leaks"] as? [String] == [])
    #expect(report["injections"] as? Int == InjectionStrings.all.count)

    let entities =
      #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"entities","arguments":{}}}"#
    // No token, a session cookie instead, another site's page: refused.
    #expect(try Self.call(base, token: nil, entities).status == 401)
    let cookie = mike.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    #expect(
      try LoopbackHTTP.request(
        "POST", base + "/-/mcp", body: Data(entities.utf8), headers: [("Cookie", cookie)]
      ).status == 401)
    #expect(
      try Self.call(base, token: token, entities, origin: "https://evil.example").status == 403)
    #expect(try Self.call(base, token: token, entities, origin: base).status == 200)
    #expect(try LoopbackHTTP.request("GET", base + "/-/mcp").status == 405)
    // A read token reads and never writes.
    let reader = try Person(base: base).token(user: "Mike", scope: "read")
    let edit = try Self.call(
      base, token: reader,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"edit","arguments":{"entity":"Film","key":1,"values":{"length":5},"seen":{"length":100}}}}"#
    )
    #expect(edit.text.contains("may only read"))

    // Two clients, the same ids at the same time: each gets its own answers.
    let jon = try Person(base: base).token(user: "Jon", scope: "read")
    final class Answers: @unchecked Sendable {
      let lock = NSLock()
      var wrong: [String] = []
      func record(_ text: String) { lock.withLock { wrong.append(text) } }
    }
    let answers = Answers()
    try await offThePool {
      DispatchQueue.concurrentPerform(iterations: 40) { round in
        let isJon = round.isMultiple(of: 2)
        let answer = try? Self.call(base, token: isJon ? jon : token, entities)
        let text = answer?.text ?? ""
        let seesCustomer =
          text.contains(#"\"name\":\"Customer\""#) || text.contains(#""name":"Customer""#)
        if !text.contains(#""id":1"#) || seesCustomer == isJon { answers.record(text) }
      }
    }
    #expect(answers.wrong.isEmpty, "\(answers.wrong.first ?? "")")
    // A proposal: a person approves it on its page and it is saved; a rejected one changes
    // nothing; a token alone cannot decide one.
    let proposer = try Person(base: base).token(user: "Mike", scope: "propose")
    func propose(_ lastName: String, customer: Int, seen: String) throws -> String {
      let answer = try Self.call(
        base, token: proposer,
        #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"edit","arguments":{"entity":"Customer","key":\#(customer),"values":{"lastName":"\#(lastName)"},"seen":{"lastName":"\#(seen)"}}}}"#
      )
      guard
        let range = answer.text.range(
          of: #"/-/proposals/[A-Za-z0-9_-]+"#, options: .regularExpression)
      else { throw TokenMissing() }
      return String(answer.text[range])
    }
    let approved = try propose("SMYTHE", customer: 1, seen: "SMITH")
    #expect(try Self.customer(database, 1) == "SMITH", "nothing changes before a person decides")
    let bearerOnly = try LoopbackHTTP.request(
      "POST", base + approved, body: Data("action=approve".utf8),
      contentType: "application/x-www-form-urlencoded",
      headers: [("Authorization", "Bearer " + proposer)])
    #expect(bearerOnly.status == 403)
    let proposalPage = try mike.send("GET", approved)
    #expect(proposalPage.status == 200)
    #expect(
      proposalPage.text.contains("Proposed by") && proposalPage.text.contains("SMYTHE")
        && proposalPage.text.contains("SMITH"))
    // Forms need their session's CSRF token; names and values are escaped.
    #expect(
      try mike.send("POST", "/-/tokens", form: [("action", "make"), ("scope", "write")]).status
        == 403)
    #expect(try mike.send("POST", approved, form: [("action", "reject")]).status == 403)
    let tokens = try mike.send("GET", "/-/tokens")
    let labelled = try mike.send(
      "POST", "/-/tokens",
      form: [
        ("_csrf", Person.csrf(tokens.text)), ("action", "make"), ("scope", "read"),
        ("label", "<b>x</b>"),
      ])
    #expect(labelled.text.contains("&lt;b&gt;x&lt;/b&gt;") && !labelled.text.contains("<b>x"))
    let marked = try propose("<i>MARK</i>", customer: 5, seen: "BROWN")
    let markedPage = try mike.send("GET", marked)
    #expect(
      markedPage.text.contains("&lt;i&gt;MARK&lt;/i&gt;") && !markedPage.text.contains("<i>MARK"))
    // Jon may not edit customers: he neither sees nor decides the proposal.
    let jonPerson = Person(base: base)
    _ = try jonPerson.token(user: "Jon", scope: "read")
    #expect(try jonPerson.send("GET", approved).status == 403)
    let decided = try mike.send(
      "POST", approved, form: [("_csrf", Person.csrf(proposalPage.text)), ("action", "approve")])
    #expect(decided.status == 303)
    #expect(try Self.customer(database, 1) == "SMYTHE")
    let again = try mike.send(
      "POST", approved, form: [("_csrf", Person.csrf(proposalPage.text)), ("action", "approve")])
    #expect(again.status == 409, "decided once")
    let rejected = try propose("JONES", customer: 2, seen: "JOHNSON")
    let second = try mike.send("GET", rejected)
    #expect(
      try mike.send(
        "POST", rejected, form: [("_csrf", Person.csrf(second.text)), ("action", "reject")]
      )
      .status == 303)
    #expect(try Self.customer(database, 2) == "JOHNSON")
    // A proposal without seen values is locked on the row as it was proposed.
    let unlocked = try Self.call(
      base, token: proposer,
      #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"edit","arguments":{"entity":"Customer","key":4,"values":{"lastName":"BROWN"}}}}"#
    )
    let unlockedPath = try #require(
      unlocked.text.range(of: #"/-/proposals/[A-Za-z0-9_-]+"#, options: .regularExpression).map {
        String(unlocked.text[$0])
      })
    try SQLiteAdaptor(path: database).executeScript(
      "UPDATE customer SET last_name = 'JONESY' WHERE customer_id = 4")
    let unlockedPage = try mike.send("GET", unlockedPath)
    #expect(unlockedPage.text.contains("JONES"), "the lock shown: what was stored")
    #expect(
      try mike.send(
        "POST", unlockedPath,
        form: [("_csrf", Person.csrf(unlockedPage.text)), ("action", "approve")]
      ).status == 409)
    #expect(try Self.customer(database, 4) == "JONESY")
    // A change meanwhile: approving is a conflict, shown, and nothing is written.
    let stale = try propose("BROWNE", customer: 3, seen: "WILLIAMS")
    try SQLiteAdaptor(path: database).executeScript(
      "UPDATE customer SET last_name = 'WILLIAMSON' WHERE customer_id = 3")
    let stalePage = try mike.send("GET", stale)
    let conflict = try mike.send(
      "POST", stale, form: [("_csrf", Person.csrf(stalePage.text)), ("action", "approve")])
    #expect(conflict.status == 409)
    #expect(conflict.text.contains("conflict: lastName of Customer 3 is now"))
    #expect(try Self.customer(database, 3) == "WILLIAMSON")

    // Revoked, the token is refused.
    let page = try mike.send("GET", "/-/tokens")
    let hashes = page.text.components(separatedBy: #"name="token" value=""#).dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    for hash in hashes {
      _ = try mike.send(
        "POST", "/-/tokens",
        form: [("_csrf", Person.csrf(page.text)), ("action", "revoke"), ("token", hash)])
    }
    #expect(try Self.call(base, token: token, entities).status == 401)
  }
}
