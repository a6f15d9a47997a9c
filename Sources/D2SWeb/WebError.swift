/// A request the server answers with an error page: its status and a message safe to show
/// (no SQL, no stack, no file path).
public struct WebError: Error, Sendable, CustomStringConvertible {
  /// The HTTP status of an error page.
  public enum Status: Int, Sendable {
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case conflict = 409
    case contentTooLarge = 413
    case uriTooLong = 414
    case tooManyRequests = 429
    case headersTooLarge = 431
    case misdirected = 421
    case internalError = 500
    case unavailable = 503

    /// The page's heading (`Not found`).
    public var title: String {
      switch self {
      case .badRequest: "Bad request"
      case .unauthorized: "Login failed"
      case .forbidden: "Not allowed"
      case .conflict: "Changed meanwhile"
      case .contentTooLarge: "Too large"
      case .notFound: "Not found"
      case .methodNotAllowed: "Method not allowed"
      case .uriTooLong: "URI too long"
      case .tooManyRequests: "Too many attempts"
      case .headersTooLarge: "Headers too large"
      case .misdirected: "Unknown host"
      case .internalError: "Server error"
      case .unavailable: "Database unavailable"
      }
    }
  }

  /// The status.
  public var status: Status
  /// What went wrong, for the person reading the page.
  public var message: String
  /// Where in the parameter the problem is (a parse error's column), when known.
  public var column: Int?

  /// Headers the error's response carries besides the security headers (`Allow` of a
  /// 405, `Retry-After` of a 429).
  public var headers: [(String, String)]
  /// The explanation of the permission that refused (`/-/why?…&key=isObjectEditable`), for a
  /// user the rules let see explanations.
  public var why: String?

  /// An error page; `allow` lists the methods a 405's resource takes, `retryAfter` the
  /// seconds a 429 asks the client to wait.
  public init(
    _ status: Status, _ message: String, column: Int? = nil, allow: String? = nil,
    retryAfter: Int? = nil
  ) {
    self.status = status
    self.message = message
    self.column = column
    headers = []
    if let allow { headers.append(("Allow", allow)) }
    if let retryAfter { headers.append(("Retry-After", String(retryAfter))) }
  }

  /// The message.
  public var description: String { message }
}
