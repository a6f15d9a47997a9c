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
///   431 for) is answered 414 when its request line alone is longer than the parser allows
///   (``ConnectionWatch``), else 431, or 400 for any other parse error, with the security
///   headers, instead of a bare 400.
final class HTTPHeadCheck: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Whether a response has begun and not ended (no error response can be sent then).
  private var responding = false
  /// The connection's bytes before the parser: the length of the request line being read.
  private let watch: ConnectionWatch
  /// The most bytes the parser reads of a head's field (its target among them).
  private let maximumFieldBytes: Int

  init(watch: ConnectionWatch, maximumFieldBytes: Int) {
    self.watch = watch
    self.maximumFieldBytes = maximumFieldBytes
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if case .end = part { watch.requestEnded() }
    guard case .head(var head) = part, !head.uri.hasPrefix("/") else {
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
      let tooLong = tooLarge && watch.bytes > maximumFieldBytes
      let body =
        tooLong
        ? "the request's target is too long\n"
        : tooLarge ? "the request's head is too large\n" : "the request is not valid HTTP\n"
      var headers = HTTPHeaders([
        ("Connection", "close"), ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", String(body.utf8.count)), ("Cache-Control", "no-store"),
      ])
      for (name, value) in WebResponse.securityHeaders { headers.add(name: name, value: value) }
      let status: HTTPResponseStatus =
        tooLong ? .uriTooLong : tooLarge ? .requestHeaderFieldsTooLarge : .badRequest
      let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
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

/// What a connection's bytes and events tell before the parser, at the head of its pipeline:
/// how long the request being read's line is (the parser refuses a head without saying which
/// part was too long), and when the client leaves (its ``ClientPresence``).
///
/// The line's length is its bytes before the first line feed since the last request ended
/// (all of them, while none has come); only a request's bytes up to that line feed are searched.
final class ConnectionWatch: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// The request line's bytes so far.
  private(set) var bytes = 0
  /// Whether the line has ended.
  private var ended = false
  /// Told when the client closes its side, or the connection ends.
  let presence = ClientPresence()

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if !ended {
      let view = unwrapInboundIn(data).readableBytesView
      if let feed = view.firstIndex(of: UInt8(ascii: "\n")) {
        bytes += feed - view.startIndex
        ended = true
      } else {
        bytes += view.count
      }
    }
    context.fireChannelRead(data)
  }

  /// A request has been read to its end: the next one's line begins. (Its bytes may have come
  /// with the end of this one's: its line is then counted as empty.)
  func requestEnded() {
    bytes = 0
    ended = false
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let event = event as? ChannelEvent, case .inputClosed = event { presence.leave() }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    presence.leave()
    context.fireChannelInactive()
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
      let watch = ConnectionWatch()
      try channel.pipeline.syncOperations.addHandler(watch)
      var limits = NIOHTTPDecoderLimitConfiguration()
      limits.maxHeaderFieldSize = maximumHeadBytes
      limits.maxHeaderListSize = maximumHeadBytes
      try channel.pipeline.syncOperations.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false,
        withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
        withDecoderLimitConfiguration: limits)
      try channel.pipeline.syncOperations.addHandler(
        HTTPHeadCheck(watch: watch, maximumFieldBytes: maximumHeadBytes))
      try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
      try channel.pipeline.syncOperations.addHandler(
        HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
      let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
        wrappingChannelSynchronously: channel,
        configuration: .init(isOutboundHalfClosureEnabled: true))
      return Value(asyncChannel: asyncChannel, presence: watch.presence)
    }
  }

  /// Answers the connection's requests, each knowing whether its client is still there.
  func handle(value: Value, logger: Logger) async {
    await ClientPresence.$current.withValue(value.presence) {
      await handleHTTP(asyncChannel: value.asyncChannel, logger: logger)
    }
  }
}
