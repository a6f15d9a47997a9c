import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A request's context: Hummingbird's, the client's address, and what the middleware found:
/// the request as the application reads it and its session.
public struct WebRequestContext: RequestContext {
  /// Hummingbird's own.
  public var coreContext: CoreRequestContextStorage
  /// The client's address (its share of the pool, its failed logins).
  public let clientAddress: String
  /// What the middleware found, one object that every copy of the context shares (a context
  /// is copied from one middleware to the next).
  private let found = Found()
  /// The request as the application reads it (``WebRequestMiddleware`` sets it).
  var web: WebRequest {
    get { found.web }
    nonmutating set { found.web = newValue }
  }
  /// The request's session, when it has one (``WebRequestMiddleware`` finds it).
  var session: WebSession? {
    get { found.session }
    nonmutating set { found.session = newValue }
  }

  /// What the middleware found for one request; set by one middleware after another on the
  /// request's task, read after.
  final class Found: @unchecked Sendable {
    var web = WebRequest(path: "/")
    var session: WebSession?
  }

  /// The context of a request a connection received.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
  }

  /// The context of a request made in process (``WebApplication/respond(to:)``).
  init(clientAddress: String, logger: Logger) {
    coreContext = .init(source: InProcessSource(logger: logger))
    self.clientAddress = clientAddress
  }

  /// Where an in-process request comes from: no channel, only a logger.
  struct InProcessSource: RequestContextSource {
    var logger: Logger
  }
}

extension WebResponse {
  /// The response as Hummingbird sends it; for a `HEAD`, GET's headers and length without the
  /// body.
  func response(head: Bool) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = contentType
    for (name, value) in self.headers {
      if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
    }
    let status = HTTPResponse.Status(code: status)
    guard !head else {
      headers[.contentLength] = String(bytes.readableBytes)
      return Response(status: status, headers: headers, body: ResponseBody())
    }
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: bytes))
  }

  /// A response Hummingbird made, its body collected.
  init(_ response: Response) async throws {
    let collected = BodyCollector.Buffer()
    try await response.body.write(BodyCollector(collected: collected))
    var headers: [(String, String)] = []
    for field in response.headers where field.name != .contentType {
      headers.append((field.name.rawName, field.value))
    }
    self.init(
      status: response.status.code, contentType: response.headers[.contentType] ?? "",
      headers: headers, bytes: collected.bytes.withLock { $0 })
  }

  /// Collects a response body in process.
  struct BodyCollector: ResponseBodyWriter {
    /// Where the bytes go.
    final class Buffer: Sendable {
      let bytes = Mutex(ByteBuffer())
    }
    let collected: Buffer
    mutating func write(_ buffer: ByteBuffer) async throws {
      collected.bytes.withLock { bytes in
        var buffer = buffer
        bytes.writeBuffer(&buffer)
      }
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
  }
}

extension WebApplication {
  /// The HTTP server of this application on `host`:`port` (0: a free port); a request target
  /// or a head over 16 KB is answered 414 or 431; `onRunning` is told the bound port. Its
  /// services (the rule watcher, `services`) run beside it in one service group: SIGTERM or
  /// SIGINT lets the requests in flight finish, then stops them all.
  public func server(
    host: String, port: Int, logger: Logger, services: [any Service] = [],
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    // The parser reads up to four times the limits, so that the application answers what is
    // beyond them with 414 or 431 (and its security headers); beyond that, HTTPHeadCheck's 431.
    let maximumHeadBytes = 4 * configuration.maximumTargetLength
    let idleTimeout = configuration.requestTimeout
    return Application(
      responder: makeRouter().buildResponder(),
      server: HTTPServerBuilder { responder in
        CheckedHTTP1Channel(
          responder: responder, maximumHeadBytes: maximumHeadBytes, idleTimeout: idleTimeout)
      },
      configuration: ApplicationConfiguration(
        address: .hostname(host, port: port), serverName: nil),
      services: services,
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
      logger: logger)
  }

  /// The application's routes, for in-process tests (HummingbirdTesting's router framework).
  public func testApplication() -> some ApplicationProtocol {
    Application(responder: responder)
  }

  /// The response to `request`, made in process by the same router and middleware as a
  /// request a connection received: a page, or an error page in the same look; never SQL, a
  /// stack trace or a file path (those go to the log). Every response carries the security
  /// headers.
  public func respond(to request: WebRequest) async -> WebResponse {
    var fields = HTTPFields()
    if let accept = request.accept { fields[.accept] = accept }
    if !request.cookies.isEmpty {
      fields[.cookie] = request.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
    if request.method == "POST" { fields[.contentType] = "application/x-www-form-urlencoded" }
    // What a test says the client sent beyond these (a long header), as a field of that size.
    let sent = fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    if request.headerBytes > sent, let padding = HTTPField.Name("X-Padding") {
      fields[padding] = String(repeating: "a", count: request.headerBytes - sent)
    }
    let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
    let head = HTTPRequest(
      method: HTTPRequest.Method(request.method) ?? .get, scheme: "http",
      authority: request.host, path: target, headerFields: fields)
    let hummingbird = Request(
      head: head, body: RequestBody(buffer: ByteBuffer(string: request.body)))
    let context = WebRequestContext(clientAddress: request.clientAddress, logger: logger)
    do {
      return try await WebResponse(try await responder.respond(to: hummingbird, context: context))
    } catch {
      return errorPage(for: error, json: request.wantsJSON)
    }
  }
}
