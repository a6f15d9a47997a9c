import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Between NIO's HTTP/1 parser and Hummingbird's: what only the raw request head shows.
///
/// - An absolute-form target (`GET http://evil.example/Film/1`) names the authority a server
///   must use instead of `Host` (RFC 9112 §3.2.2), which Hummingbird's conversion drops: it
///   becomes the request's `Host`, so that the host check sees it (the asterisk form, or an
///   absolute one without a usable authority, leaves none: 400).
/// - A head the parser refuses (beyond four times the limits the application answers 414 and
///   431 for) is answered 431, or 400 for any other parse error, with the security headers,
///   instead of a bare 400.
final class HTTPHeadCheck: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Whether a response has begun and not ended (no error response can be sent then).
  private var responding = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data), !head.uri.hasPrefix("/") else {
      context.fireChannelRead(data)
      return
    }
    head.headers.remove(name: "Host")
    if let authority = WebRequest.authority(target: head.uri, host: nil) {
      head.headers.add(name: "Host", value: authority)
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let failure = error as? HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    if !responding {
      let tooLarge = failure == .headerOverflow
      let body =
        tooLarge ? "the request's head is too large\n" : "the request is not valid HTTP\n"
      var headers = HTTPHeaders([
        ("Connection", "close"), ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", String(body.utf8.count)), ("Cache-Control", "no-store"),
      ])
      for (name, value) in WebResponse.securityHeaders { headers.add(name: name, value: value) }
      let head = HTTPResponseHead(
        version: .http1_1, status: tooLarge ? .requestHeaderFieldsTooLarge : .badRequest,
        headers: headers)
      context.write(wrapOutboundOut(.head(head)), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
    // The parser cannot go on: the connection ends once the answer is written.
    context.close(promise: nil)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head) where head.status.code >= 200: responding = true
    case .end: responding = false
    default: break
    }
    context.write(data, promise: promise)
  }
}

/// Hummingbird's HTTP/1 child channel with ``HTTPHeadCheck`` before its conversion to
/// HTTPTypes; otherwise as `HTTP1Channel` sets it up (limits, idle timeout).
struct CheckedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
  /// A connection: its requests and answers, and whether its client is still there.
  struct Value: ServerChildChannelValue {
    let asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    let presence: ClientPresence
    var channel: any Channel { asyncChannel.channel }
  }

  let responder: HTTPChannelHandler.Responder
  /// The most bytes of one header field (the request line's target among them) and of all.
  let maximumHeadBytes: Int
  /// How long a connection may send nothing complete.
  let idleTimeout: Duration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let presence = ClientPresence()
      try channel.pipeline.syncOperations.addHandler(ClientPresenceHandler(presence))
      var limits = NIOHTTPDecoderLimitConfiguration()
      limits.maxHeaderFieldSize = maximumHeadBytes
      limits.maxHeaderListSize = maximumHeadBytes
      try channel.pipeline.syncOperations.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false,
        withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
        withDecoderLimitConfiguration: limits)
      try channel.pipeline.syncOperations.addHandler(HTTPHeadCheck())
      try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try channel.pipeline.syncOperations.addHandler(
        HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
      let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
        wrappingChannelSynchronously: channel,
        configuration: .init(isOutboundHalfClosureEnabled: true))
      return Value(asyncChannel: asyncChannel, presence: presence)
    }
  }

  /// Answers the connection's requests, each knowing whether its client is still there.
  func handle(value: Value, logger: Logger) async {
    await ClientPresence.$current.withValue(value.presence) {
      await handleHTTP(asyncChannel: value.asyncChannel, logger: logger)
    }
  }
}
