import D2SHTML
import Foundation
import NIOCore

/// An HTTP request as the application sees it: method, path and query (both as sent,
/// still percent-encoded), and the headers it reads.
public struct WebRequest: Sendable {
  /// `GET`, `HEAD`…
  public var method: String
  /// The path, percent-encoded (`/Film/1`).
  public var path: String
  /// The query string without `?`, percent-encoded.
  public var query: String
  /// The `Host` header (with its port), if sent.
  public var host: String?
  /// The `Accept` header, if sent.
  public var accept: String?
  /// The cookies sent, by name.
  public var cookies: [String: String]
  /// The body of a POST (a form, `application/x-www-form-urlencoded`).
  public var body: String
  /// The client's address (for slowing down repeated failed logins).
  public var clientAddress: String
  /// The size of the request's header fields, in bytes (over the limit: 431).
  public var headerBytes = 0
  /// The query's parameters, decoded once (by the request's checks); nil until then.
  var decodedParameters: [(String, String)]?

  /// The query's parameters, in order: as decoded by the request's checks, else decoded now
  /// (none when the query is not valid percent-encoded UTF-8).
  var parameters: [(String, String)] {
    decodedParameters ?? HTML.queryParameters(Substring(query)) ?? []
  }

  /// A request.
  public init(
    method: String = "GET", path: String, query: String = "", host: String? = "127.0.0.1",
    accept: String? = nil, cookies: [String: String] = [:], body: String = "",
    clientAddress: String = "127.0.0.1"
  ) {
    self.cookies = cookies
    self.body = body
    self.clientAddress = clientAddress
    self.method = method
    self.path = path
    self.query = query
    self.host = host
    self.accept = accept
  }

  /// A request for `target`, a path with an optional `?query`.
  public init(
    method: String = "GET", target: String, host: String? = "127.0.0.1", accept: String? = nil,
    cookies: [String: String] = [:], body: String = ""
  ) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    self.init(
      method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
      host: host, accept: accept, cookies: cookies, body: body)
  }

  /// The authority a request is addressed to: its target's, when the target is in absolute
  /// form (`GET http://host/path`, which a server must prefer to `Host`), else `host`. Nil
  /// for an absolute target without an authority, or another form (`*`).
  public static func authority(target: String?, host: String?) -> String? {
    guard let target, !target.hasPrefix("/") else { return host }
    guard let scheme = target.range(of: "://") else { return nil }
    let rest = target[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "@")) else { return nil }
    return String(authority)
  }

  /// The cookies of a `Cookie` header (`a=1; b=2`).
  public static func cookies(_ header: String?) -> [String: String] {
    var cookies: [String: String] = [:]
    guard var header, !header.isEmpty else { return cookies }
    // Read over the header's contiguous bytes: split by `Character`s, and then by the generic
    // UTF-8 view's `split`, reading a logged-in request's cookies cost 1% and then 0.5% of its
    // page.
    header.withUTF8 { bytes in
      var start = 0
      while start <= bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
        defer { start = end + 1 }
        guard
          let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")),
          equals > start, equals + 1 < end
        else { continue }
        let key = trimmed(UnsafeBufferPointer(rebasing: bytes[start..<equals]))
        if cookies[key] == nil {
          cookies[key] = trimmed(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]))
        }
      }
    }
    return cookies
  }

  /// `text` without the spaces and tabs around it (a header's optional white space), read
  /// byte by byte: Foundation's trimming took 1% of a logged-in page.
  static func trimmed(_ text: Substring) -> String { trimmed(text.utf8) }

  /// ``trimmed(_:)-(Substring)`` of UTF-8 bytes.
  static func trimmed(_ utf8: Substring.UTF8View) -> String {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = utf8.firstIndex(where: { !isBlank($0) }),
      let last = utf8.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(decoding: utf8[first...last], as: UTF8.self)
  }

  /// ``trimmed(_:)-(Substring)`` of contiguous UTF-8 bytes.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isBlank($0) }),
      let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[first...last]), as: UTF8.self)
  }

  /// The form fields of the body, in order (nil when it is not a valid form).
  var form: [(String, String)]? { HTML.queryParameters(Substring(body)) }

  /// Whether the page is asked for as JSON (`Accept: application/json` or `format=json`).
  var wantsJSON: Bool { (try? format) == .json }

  /// What the page is asked to be written as (``WebFormat``); throws for a format or CSV
  /// option the server does not know.
  var format: WebFormat {
    get throws { try WebFormat.requested(parameters, accept: accept) }
  }

  /// The host name `Host` names, without its port, lowercased (`[::1]` as `::1`); nil when
  /// the header is missing or malformed (a port that is not digits, text after `]`).
  public var hostName: String? {
    guard var host, !host.isEmpty else { return nil }
    // Read as bytes: every request asks, and `Character`s would cost a microsecond.
    return host.withUTF8 { Self.hostName(in: $0[...]) }
  }

  /// ``hostName`` of the header's bytes.
  private static func hostName(in header: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    var name = header
    var port = header[header.endIndex...]
    if name.first == UInt8(ascii: "[") {
      guard let close = name.firstIndex(of: UInt8(ascii: "]")) else { return nil }
      let rest = name[(close + 1)...]
      guard rest.isEmpty || rest.first == UInt8(ascii: ":") else { return nil }
      port = rest.dropFirst()
      name = name[(name.startIndex + 1)..<close]
    } else if let colon = name.lastIndex(of: UInt8(ascii: ":")) {
      port = name[(colon + 1)...]
      name = name[..<colon]
      guard !port.isEmpty else { return nil }
    }
    let isForbidden = { (byte: UInt8) in
      byte == UInt8(ascii: "@") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
        || byte == UInt8(ascii: " ")
    }
    guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      !name.isEmpty, !name.contains(where: isForbidden)
    else { return nil }
    guard name.allSatisfy({ $0 < 0x80 }) else {
      return String(decoding: name, as: UTF8.self).lowercased()
    }
    return String(unsafeUninitializedCapacity: name.count) { out in
      for (offset, byte) in name.enumerated() {
        out[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
      }
      return name.count
    }
  }
}

/// What the application answers: status, content type, headers and body.
public struct WebResponse: Sendable {
  /// The HTTP status.
  public var status: Int
  /// The `Content-Type`.
  public var contentType: String
  /// Other headers (`Vary`, `Cache-Control`, the security headers).
  public var headers: [(String, String)]
  /// The body's bytes, sent as they are.
  public var bytes: ByteBuffer
  /// The body as text (UTF-8).
  public var body: String {
    get { String(buffer: bytes) }
    set { bytes = ByteBuffer(string: newValue) }
  }

  /// A response.
  public init(
    status: Int = 200, contentType: String, headers: [(String, String)] = [], body: String
  ) {
    self.init(
      status: status, contentType: contentType, headers: headers, bytes: ByteBuffer(string: body))
  }

  /// A response whose body is `bytes` (a page as it was written, or kept).
  public init(
    status: Int = 200, contentType: String, headers: [(String, String)] = [], bytes: ByteBuffer
  ) {
    self.status = status
    self.contentType = contentType
    self.headers = headers
    self.bytes = bytes
  }

  /// The value of header `name` (case-insensitive), if set.
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.0.lowercased() == lowered }?.1
  }

  /// The headers every response carries: no framing, no sniffing, no referrer elsewhere.
  public static let securityHeaders: [(String, String)] = [
    ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    // For browsers without CSP level 2's frame-ancestors.
    ("X-Frame-Options", "DENY"),
  ]
}
