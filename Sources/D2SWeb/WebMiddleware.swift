import Components
import D2SHTML
import EnvKeys
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: the application's dependencies around the request, an error
/// page for whatever a route throws (never SQL, a stack trace or a file path: those go to the
/// log), the security headers on every response, and the request's log line.
struct WebResponseMiddleware: RouterMiddleware {
  typealias Context = WebRequestContext
  let application: WebApplication

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    var response: Response
    do {
      // A server sets none (a test may set a clock): the scope's own then stand.
      if application.dependencies.isEmpty {
        response = try await next(request, context)
      } else {
        response = try await withDependencies {
          $0 = $0.merging(application.dependencies)
        } operation: {
          try await next(request, context)
        }
      }
    } catch {
      let web = WebRequest(
        method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
        accept: request.headers[.accept])
      response = application.errorPage(
        for: Self.webError(error, method: request.method), json: web.wantsJSON
      )
      .response(head: request.method == .head)
    }
    response.headers.append(contentsOf: Self.securityHeaders)
    let bytes =
      request.method == .head
      ? Int(response.headers[.contentLength] ?? "") ?? 0 : response.body.contentLength ?? 0
    application.log(
      method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
      status: response.status.code, bytes: bytes, started: started,
      client: context.clientAddress)
    return response
  }

  /// ``WebResponse/securityHeaders`` as header fields, made once (no route sets them).
  static let securityHeaders: [HTTPField] = WebResponse.securityHeaders.compactMap {
    name, value in HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
  }

  /// What an error a route threw means to a visitor: no route is a 404, except for a POST,
  /// which only forms take (405).
  static func webError(_ error: any Error, method: HTTPRequest.Method) -> any Error {
    guard let failure = error as? HTTPError else { return error }
    if failure.status == .notFound {
      return method == .post
        ? WebError(.methodNotAllowed, "POST is not allowed here", allow: "GET, HEAD")
        : WebError(.notFound, "no page here")
    }
    if failure.status == .contentTooLarge {
      return WebError(.contentTooLarge, "the form is larger than the server accepts")
    }
    return WebError(.badRequest, "the request is not valid")
  }
}

/// What every request must be before a route sees it: for a host this server answers, by a
/// method it knows, with a target and headers within the limits and a query that decodes.
/// Sets the request as the application reads it on the context, and its session (a signed
/// cookie whose record the server keeps): one middleware, so that a cached page passes one
/// async frame fewer.
struct WebRequestMiddleware: RouterMiddleware {
  typealias Context = WebRequestContext
  let application: WebApplication

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var web = WebRequest(
      method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
      host: WebRequest.authority(target: request.head.path, host: request.head.authority),
      accept: request.headers[.accept], cookies: WebRequest.cookies(request.headers[.cookie]),
      clientAddress: context.clientAddress)
    web.headerBytes = request.headers.reduce(0) {
      $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4
    }
    // The query decoded once, for the checks and the route.
    web.decodedParameters = HTML.queryParameters(Substring(web.query))
    try application.check(web)
    context.web = web
    let session = try await application.session(of: web)
    context.session = session
    guard let session else { return try await next(request, context) }
    do {
      return try await next(request, context)
    } catch {
      // A logged-in user's error page says who is logged in (and offers Log out, not Log in).
      guard !web.wantsJSON else { throw error }
      let account = await application.account(of: session, client: context.clientAddress)
      return application.errorPage(
        for: WebResponseMiddleware.webError(error, method: request.method), account: account
      )
      .response(head: request.method == .head)
    }
  }
}

/// A form's body, read (at most ``maximumBody`` bytes) onto the request; with `checksToken`,
/// a POST without its session's CSRF token is refused (403) before its route runs.
struct WebFormMiddleware: RouterMiddleware {
  typealias Context = WebRequestContext
  let application: WebApplication
  /// Whether a POST must carry its session's CSRF token (every form but the login form,
  /// which carries a token of its own).
  let checksToken: Bool
  /// The largest form body accepted.
  static let maximumBody = 1 << 20

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard request.method == .post else { return try await next(request, context) }
    var request = request
    guard let bytes = try? await request.collectBody(upTo: Self.maximumBody) else {
      throw WebError(.contentTooLarge, "the form is larger than the server accepts")
    }
    context.web.body = String(buffer: bytes)
    // A body that does not decode is the client's error, not an expired form.
    guard context.web.body.isEmpty || context.web.form != nil else {
      throw WebError(.badRequest, "the form is not valid percent-encoded UTF-8")
    }
    if checksToken { try application.requireToken(context.web, session: context.session) }
    return try await next(request, context)
  }
}
