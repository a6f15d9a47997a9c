import Components
import D2SHTML
import D2SModel
import Foundation

/// `GET /-/tokens`: a logged-in person's bearer tokens for agents (`/-/mcp`), with a form to
/// make one (its scope: read, propose or write) and a button to revoke each; `POST` to it
/// makes (the token is shown once) or revokes one. A token acts as its maker's user, within
/// its scope; the server keeps only its hash.
extension WebApplication {
  func tokens(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    guard let session else {
      if request.method == "POST" { throw WebError(.forbidden, "log in to manage tokens") }
      return Self.loginRedirect(request.path)
    }
    // A POST's CSRF token was checked before the route ran (WebFormMiddleware).
    let (keys, databaseName) = (keys, databaseName)
    let links = try await pool.withDatabase(client: request.clientAddress) { [self] database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      let application = pageApplication(for: database)
      guard
        try Self.user(session, in: database, keys: keys, links: &links, base: application.base)
          != nil
      else { return WebLinks?.none }
      return links
    }
    guard let links else { return Self.loginRedirect(request.path) }
    let owner = (database: session.database, entity: session.entity, key: session.record.key)
    var made: String?
    if request.method == "POST", let form = request.form {
      let action = form.last { $0.0 == "action" }?.1
      if action == "revoke", let hash = form.last(where: { $0.0 == "token" })?.1 {
        try agentTokens.revoke(
          hash: hash, database: owner.database, entity: owner.entity, key: owner.key)
      } else if action == "make" {
        guard let scope = TokenScope(rawValue: form.last { $0.0 == "scope" }?.1 ?? "") else {
          throw WebError(.badRequest, "scope: read, propose or write")
        }
        let label = String((form.last { $0.0 == "label" }?.1 ?? "").prefix(80))
        made = try agentTokens.make(
          AgentToken(
            database: owner.database, entity: owner.entity, key: owner.key, scope: scope,
            label: label.isEmpty ? "agent" : label, created: Date(), stamp: session.record.stamp))
        logger.notice("token made (\(scope.rawValue)) by \(links.userName ?? "?")")
      } else {
        throw WebError(.badRequest, "the form is not valid")
      }
    }
    let output = StringOutput()
    HTMLRenderer.writeHead(
      title: "Agent tokens", databaseName: databaseName, user: links.userName, csrf: links.csrf,
      to: output)
    HTMLRenderer.writeBreadcrumb([("Entities", "/")], to: output)
    output.write("<h1>Agent tokens</h1>\n")
    let csrf = HTML.escape(links.csrf ?? "")
    if let made {
      output.write(
        "<p class=\"saved\" role=\"status\">Made. Copy the token now: it is not shown again.</p>\n<p><code class=\"token\">\(HTML.escape(made))</code></p>\n<p class=\"hint\">An MCP client sends it as <code>Authorization: Bearer …</code> to <code>/-/mcp</code> (Documentation/Agents.md).</p>\n"
      )
    }
    let mine = try agentTokens.tokens(
      database: owner.database, entity: owner.entity, key: owner.key)
    if mine.isEmpty {
      output.write("<p class=\"hint\">No tokens.</p>\n")
    } else {
      output.write(
        "<table class=\"list\"><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Scope</th><th scope=\"col\">Made</th><th scope=\"col\"><span class=\"visually-hidden\">Revoke</span></th></tr></thead><tbody>\n"
      )
      for (hash, token) in mine {
        output.write(
          "<tr><td>\(HTML.escape(token.label))</td><td>\(token.scope.rawValue)</td><td>\(HTML.escape(ISO8601DateFormatter().string(from: token.created)))</td><td><form class=\"inline\" method=\"post\" action=\"/-/tokens\"><input type=\"hidden\" name=\"_csrf\" value=\"\(csrf)\"><input type=\"hidden\" name=\"action\" value=\"revoke\"><input type=\"hidden\" name=\"token\" value=\"\(HTML.escape(hash))\"><button type=\"submit\">Revoke<span class=\"visually-hidden\"> \(HTML.escape(token.label))</span></button></form></td></tr>\n"
        )
      }
      output.write("</tbody></table>\n")
    }
    output.write(
      """
      <h2>Make a token</h2>
      <form class="edit" method="post" action="/-/tokens"><input type="hidden" name="_csrf" value="\(csrf)"><input type="hidden" name="action" value="make">
      <p><label for="f-label">Name</label> <input id="f-label" name="label" maxlength="80"></p>
      <p><label for="f-scope">Scope</label> <select id="f-scope" name="scope"><option value="read">read</option><option value="propose">propose</option><option value="write">write</option></select></p>
      <p class="buttons"><button type="submit">Make</button></p>
      </form>

      """)
    HTMLRenderer.writeTail(to: output)
    return WebResponse(
      status: 200, contentType: "text/html; charset=utf-8",
      headers: [("Cache-Control", "no-store")], body: output.text)
  }
}
