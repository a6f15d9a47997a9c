import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A request's context: Hummingbird's, and the client's address.
struct WebRequestContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let clientAddress: String

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
  }
}

/// Hummingbird's side: every request goes to the ``WebApplication``.
struct WebResponder: HTTPResponder {
  typealias Context = WebRequestContext
  let application: WebApplication
  /// The largest form body accepted.
  static let maximumBody = 1 << 20

  func respond(to request: Request, context: WebRequestContext) async throws -> Response {
    var request = request
    var body = ""
    if request.method == .post {
      guard let bytes = try? await request.collectBody(upTo: Self.maximumBody) else {
        return Response(status: .contentTooLarge)
      }
      body = String(buffer: bytes)
    }
    var web = WebRequest(
      method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
      host: WebRequest.authority(target: request.head.path, host: request.head.authority),
      accept: request.headers[.accept],
      cookies: WebRequest.cookies(request.headers[.cookie]), body: body,
      clientAddress: context.clientAddress)
    web.headerBytes = request.headers.reduce(0) {
      $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4
    }
    let answer = await application.respond(to: web)
    var headers = HTTPFields()
    headers[.contentType] = answer.contentType
    for (name, value) in answer.headers {
      if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
    }
    return Response(
      status: HTTPResponse.Status(code: answer.status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
  }
}

extension WebApplication {
  /// The HTTP server of this application on `host`:`port` (0: a free port); a request target
  /// or a head over 16 KB is answered 414 or 431; `onRunning` is told the bound port.
  public func server(
    host: String, port: Int, logger: Logger,
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    // The parser reads up to four times the limits, so that the application answers what is
    // beyond them with 414 or 431 (and its security headers); beyond that, HTTPHeadCheck's 431.
    let maximumHeadBytes = 4 * configuration.maximumTargetLength
    let idleTimeout = configuration.requestTimeout
    return Application(
      responder: WebResponder(application: self),
      server: HTTPServerBuilder { responder in
        CheckedHTTP1Channel(
          responder: responder, maximumHeadBytes: maximumHeadBytes, idleTimeout: idleTimeout)
      },
      configuration: ApplicationConfiguration(
        address: .hostname(host, port: port), serverName: nil),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
      logger: logger)
  }

  /// The responder, for in-process tests (HummingbirdTesting's router framework).
  public func testApplication() -> some ApplicationProtocol {
    Application(responder: WebResponder(application: self))
  }
}
