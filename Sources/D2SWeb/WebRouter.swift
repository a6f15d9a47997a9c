import D2SHTML
import Foundation
import Hummingbird
import NIOCore

/// d2s-serve's routes, declared on a Hummingbird `Router` behind its middleware: pages under
/// `/ENTITY…`, forms under `…/-/…`, the server's own routes under `/-/`.
extension WebApplication {
  /// The router of this application's routes.
  func makeRouter() -> Router<WebRequestContext> {
    // Each route reaches the application without keeping it alive (it keeps the router).
    unowned let application = self
    let router = Router(context: WebRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: WebResponseMiddleware(application: application))
    router.add(middleware: WebRequestMiddleware(application: application))

    // The server's own.
    router.get("-/static/d2s.css") { _, _ in WebResponse.stylesheet.response(head: false) }
    router.get("-/health") { request, context in
      try await application.health(context.web).response(head: request.method == .head)
    }
    let login = router.group("-/login").add(
      middleware: WebFormMiddleware(application: application, checksToken: false))
    for method in [HTTPRequest.Method.get, .post] {
      login.on("", method: method) { request, context in
        try await application.login(context.web).response(head: request.method == .head)
      }
    }
    let logout = router.group("-/logout").add(
      middleware: WebFormMiddleware(application: application, checksToken: true))
    for method in [HTTPRequest.Method.get, .post] {
      logout.on("", method: method) { _, context in
        try await application.logout(context.web, session: context.session).response(head: false)
      }
    }

    /// A page of the server's own at `group`/`path` with a form: GET shows it, POST (with its
    /// session's CSRF token) acts on it.
    func page(
      _ group: String, _ path: RouterPath = "",
      _ respond: @escaping @Sendable (WebRequest, WebSession?) async throws -> WebResponse
    ) {
      let forms = router.group(RouterPath(group)).add(
        middleware: WebFormMiddleware(application: application, checksToken: true))
      for method in [HTTPRequest.Method.get, .post] {
        forms.on(path, method: method) { request, context in
          try await respond(context.web, context.session).response(head: request.method == .head)
        }
      }
    }
    // Agents: tokens made by a logged-in person, their proposals, and the MCP endpoint.
    page("-/tokens") { try await application.tokens($0, session: $1) }
    page("-/proposals", "{id}") { try await application.proposal($0, session: $1) }
    let rules = router.group("-/rules").add(
      middleware: WebFormMiddleware(application: application, checksToken: true))
    router.get("-/rules") { _, _ -> Response in
      throw WebError(.methodNotAllowed, "POST rule changes here", allow: "POST")
    }
    rules.post("") { _, context in
      try await application.rules(context.web, session: context.session).response(head: false)
    }
    router.get("-/why") { request, context in
      try await application.why(context.web, session: context.session)
        .response(head: request.method == .head)
    }
    router.post("-/mcp") { request, context in
      var request = request
      guard let body = try? await request.collectBody(upTo: WebFormMiddleware.maximumBody) else {
        throw WebError(.contentTooLarge, "the request is larger than the server accepts")
      }
      return try await application.mcp(
        context.web, body: Data(body.readableBytesView),
        authorization: request.headers[.authorization],
        origin: request.headers[.origin]
      ).response(head: false)
    }
    router.get("-/mcp") { _, _ -> Response in
      // No event stream: every answer is its request's response.
      throw WebError(.methodNotAllowed, "POST JSON-RPC messages here", allow: "POST")
    }

    // Pages.
    for path in ["", "{entity}", "{entity}/{key}", "{entity}/{key}/{relationship}"] {
      router.get(RouterPath(path)) { _, context in
        try await application.pageResponse(context.web, session: context.session)
      }
    }

    // Forms: a POST carries its session's CSRF token.
    let forms = router.group().add(
      middleware: WebFormMiddleware(application: application, checksToken: true))
    let writes: [(String, String, WebApplication.WriteRoute)] = [
      ("{entity}/-/new", "add rows", .create),
      ("{entity}/{key}/-/edit", "edit", .edit),
      ("{entity}/{key}/-/delete", "delete", .delete),
      ("{entity}/{key}/-/links/{relationship}", "edit", .links),
    ]
    for (path, verb, route) in writes {
      for method in [HTTPRequest.Method.get, .post] {
        forms.on(RouterPath(path), method: method) { request, context in
          try await application.write(route, context.web, session: context.session, verb: verb)
            .response(head: request.method == .head)
        }
      }
    }
    router.get("{entity}/-/query") { request, context in
      try await application.query(context.web, session: context.session)
        .response(head: request.method == .head)
    }
    for path in ["{entity}/-/choose/{relationship}", "{entity}/{key}/-/choose/{relationship}"] {
      router.get(RouterPath(path)) { request, context in
        try await application.choose(context.web, session: context.session)
          .response(head: request.method == .head)
      }
    }
    return router
  }
}
