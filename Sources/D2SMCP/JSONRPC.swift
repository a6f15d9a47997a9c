import Components
import Foundation

/// JSON-RPC 2.0 as MCP uses it: one message is a request (with an `id`), a notification
/// (without one) or a response. Our own small layer rather than the MCP Swift SDK: the server
/// needs four methods, both transports write whole responses, and the SDK would bring a
/// branch-pinned documentation plugin and an event-source package into every build.
public enum JSONRPC {
  /// The error codes of JSON-RPC and MCP.
  public enum Code: Int, Sendable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
  }

  /// A request or notification as read.
  public struct Message: @unchecked Sendable {
    /// The request's id as its JSON text (`7`, `"a"`), nil for a notification.
    public var id: String?
    /// The method (`tools/call`).
    public var method: String
    /// The parameters (an object), empty when there are none.
    public var params: [String: Any]
  }

  /// A failure answered as a JSON-RPC error.
  public struct Failure: Error, Sendable {
    /// Its code.
    public var code: Code
    /// Its message.
    public var message: String

    /// A failure with `code` and `message`.
    public init(_ code: Code, _ message: String) {
      self.code = code
      self.message = message
    }
  }

  /// A message that is not a valid request: its id (when it could be read) and why.
  public struct Refusal: Error, Sendable {
    /// The request's id as its JSON text, when it could be read.
    public var id: String?
    /// Why the message is refused.
    public var failure: Failure
    /// Whether it is answered with nothing: a response (this server sends no requests) or a
    /// notification, which JSON-RPC never answers, even when it is not valid.
    public var isSilent = false
  }

  /// The message `data` holds; the id of a request that is not valid comes with the failure
  /// when it could be read.
  public static func parse(_ data: Data) -> Result<Message, Refusal> {
    guard let object = try? JSONSerialization.jsonObject(with: data) else {
      return .failure(Refusal(id: nil, failure: Failure(.parseError, "not JSON")))
    }
    guard let fields = object as? [String: Any] else {
      // Batches were removed from MCP (2025-06-18): one message per line or request.
      return .failure(
        Refusal(id: nil, failure: Failure(.invalidRequest, "one JSON-RPC message, an object")))
    }
    let id = fields["id"].flatMap(idText)
    if fields["jsonrpc"] as? String == "2.0", fields["method"] == nil,
      fields["result"] != nil || fields["error"] != nil
    {
      return .failure(
        Refusal(id: id, failure: Failure(.invalidRequest, "a response"), isSilent: true))
    }
    guard fields["jsonrpc"] as? String == "2.0", let method = fields["method"] as? String else {
      return .failure(
        Refusal(id: id, failure: Failure(.invalidRequest, "not a JSON-RPC 2.0 request")))
    }
    if fields["id"] != nil, id == nil {
      return .failure(
        Refusal(id: nil, failure: Failure(.invalidRequest, "an id is a string or an integer")))
    }
    let params: [String: Any]
    switch fields["params"] {
    case nil, is NSNull: params = [:]
    case let object as [String: Any]: params = object
    default:
      return .failure(
        Refusal(
          id: id, failure: Failure(.invalidParams, "params is an object"),
          isSilent: fields["id"] == nil))
    }
    return .success(Message(id: id, method: method, params: params))
  }

  /// An id's JSON text: a string or an integer, as the client sent it.
  static func idText(_ value: Any) -> String? {
    if let text = value as? String { return JSONText.string(text) }
    if let number = value as? NSNumber, String(cString: number.objCType) != "c",
      let integer = Int64(exactly: number.doubleValue), "\(number)" == "\(integer)"
    {
      return "\(integer)"
    }
    return nil
  }

  /// A response carrying `result`, a JSON text.
  public static func result(id: String, _ result: String) -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":\(result)}"
  }

  /// An error response (`id` null when the request's could not be read).
  public static func error(id: String?, _ failure: Failure) -> String {
    "{\"jsonrpc\":\"2.0\",\"id\":\(id ?? "null"),\"error\":{\"code\":\(failure.code.rawValue),\"message\":\(JSONText.string(failure.message))}}"
  }

  /// `value` as JSON text (objects' keys sorted, so that answers are stable).
  static func text(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value) || value is String || value is NSNumber,
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }
}
