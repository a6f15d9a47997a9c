import Components
import D2SHTML
import D2SMCP
import D2SModel
import EnvKeys
import Foundation

/// `POST /-/mcp`: the MCP server over Streamable HTTP, for agents holding a bearer token a
/// person made at `/-/tokens` (never a session cookie). Each request's answer is its response
/// (JSON, no event stream), so one client's answers never go to another, whatever ids they
/// use. A request from a browser page of another site is refused by its `Origin`.
extension WebApplication {
  func mcp(_ request: WebRequest, body: Data, authorization: String?, origin: String?)
    async throws -> WebResponse
  {
    if let origin, !originAllowed(origin, host: request.host) {
      throw WebError(.forbidden, "this Origin may not call the MCP endpoint")
    }
    let unauthorized = WebResponse(
      status: 401, contentType: "application/json; charset=utf-8",
      headers: [("WWW-Authenticate", "Bearer"), ("Cache-Control", "no-store")],
      body: #"{"error":"a bearer token from /-/tokens is needed"}"# + "\n")
    guard let authorization, authorization.lowercased().hasPrefix("bearer "),
      let (hash, token) = try agentTokens.record(
        of: authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)),
      token.database == databaseName
    else { return unauthorized }
    guard agentCalls.admit(hash: hash, now: Date()) else {
      throw WebError(
        .tooManyRequests, "too many calls with this token: wait a minute", retryAfter: 60)
    }
    let (keys, logger) = (keys, logger)
    // The call's statements in one read transaction, as a page's (a write in it ends the
    // read and has a transaction of its own).
    let outcome: String?? = try await pool.withDatabase(client: request.clientAddress) {
      [self] database in
      try database.adaptor.reading { () throws -> String?? in
        guard let entity = database.model.entity(named: token.entity),
          let key = try? PositionToken.decode(token.key),
          let user = try database.fetchObject(entity.name, primaryKey: key),
          Login.constantTimeEqual(WebSession.stamp(of: user, keys: keys), token.stamp)
        else { return String??.none }
        // The pooled connection (its statement deadline, its share of the pool), not the one
        // the server opened at start.
        var pages = pageApplication(for: database)
        pages.base.database = database
        var tools = AgentTools(pages: pages, user: user)
        switch token.scope {
        case .read: tools.readsOnly = true
        case .propose: tools = tools.proposingOnly()
        case .write: break
        }
        var context = tools.pages.base
        context.entity = user.entity
        context.object = user
        let caller = "\(context.title) token \(hash.prefix(8))"
        // Proposals wait on this server's pages for a person.
        tools.desk = WebProposalDesk(
          store: proposals, database: token.database,
          origin: (configuration.httpsOnly ? "https://" : "http://") + (request.host ?? "127.0.0.1")
        )
        tools.proposer = caller
        let server = MCPServer(tools: tools, caller: caller, logger: logger)
        return .some(server.answer(body))
      }
    }
    guard let answer = outcome else {
      // The user is gone, or changed login name or password: the token ends.
      try agentTokens.delete(hash: hash)
      return unauthorized
    }
    guard let answer else {
      return WebResponse(status: 202, contentType: "text/plain; charset=utf-8", body: "")
    }
    return WebResponse(
      status: 200, contentType: "application/json",
      headers: [("Cache-Control", "no-store")], body: answer + "\n")
  }

  /// Whether a request with `origin` may call: one of this server's own pages (the request's
  /// host), or a host it answers.
  func originAllowed(_ origin: String, host: String?) -> Bool {
    guard let originHost = URLComponents(string: origin)?.host?.lowercased() else {
      return false
    }
    let requested = host.map { text -> String in
      if text.hasPrefix("[") { return String(text.dropFirst().prefix { $0 != "]" }) }
      return String(text.split(separator: ":").first ?? "")
    }?.lowercased()
    return originHost == requested
      || ["localhost", "127.0.0.1", "::1"].contains(originHost)
        && requested.map { ["localhost", "127.0.0.1", "::1"].contains($0) } == true
      || configuration.allowedHosts.contains(originHost)
  }
}
