import D2SModel
import Foundation
import Synchronization

/// A logged-in user's session, as its signed cookie holds it: the user entity, the user's key
/// and when the session ends.
struct WebSession: Sendable {
  /// The cookie holding a session.
  static let cookie = "d2s_session"
  /// The cookie holding a login form's pre-session.
  static let loginCookie = "d2s_login"

  let entity: String
  let key: [DatabaseValue]
  let expires: Date
  /// The signed cookie value (CSRF tokens are bound to it).
  let token: String

  /// The session of `request`'s cookie, when its signature is right and it has not expired.
  init?(_ request: WebRequest, keys: SessionKeys, now: Date = Date()) {
    guard let token = request.cookies[Self.cookie], let payload = keys.verify(token) else {
      return nil
    }
    let parts = payload.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "v1", let seconds = Double(parts[1]),
      Date(timeIntervalSince1970: seconds) > now,
      let entity = HTML.percentDecoded(parts[2]),
      let key = try? PositionToken.decode(String(parts[3]))
    else { return nil }
    self.entity = entity
    self.key = key
    self.expires = Date(timeIntervalSince1970: seconds)
    self.token = token
  }

  /// A new session cookie's value for `user`; nil when the user's key cannot be written.
  static func cookieValue(for user: DatabaseObject, keys: SessionKeys, now: Date = Date())
    -> String?
  {
    guard let key = PositionToken.encode(user.primaryKeyValues) else { return nil }
    let expires = Int(now.timeIntervalSince1970 + SessionKeys.sessionLifetime)
    return keys.sign("v1|\(expires)|\(HTML.pathSegment(user.entity.name))|\(key)")
  }

  /// The `Set-Cookie` header of a session cookie (or of its removal, for `nil`).
  static func setCookie(
    _ name: String, _ value: String?, secure: Bool, lifetime: TimeInterval
  ) -> (String, String) {
    let attributes = "; Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    guard let value else { return ("Set-Cookie", "\(name)=; Max-Age=0" + attributes) }
    return ("Set-Cookie", "\(name)=\(value); Max-Age=\(Int(lifetime))" + attributes)
  }

  /// The pre-session of a login form: its cookie value, when signed and fresh.
  static func loginBinding(_ request: WebRequest, keys: SessionKeys, now: Date = Date())
    -> String?
  {
    guard let token = request.cookies[loginCookie], let payload = keys.verify(token) else {
      return nil
    }
    let parts = payload.split(separator: "|")
    guard parts.count == 3, parts[0] == "login", let seconds = Double(parts[1]),
      Date(timeIntervalSince1970: seconds) > now
    else { return nil }
    return token
  }

  /// A new pre-session cookie value.
  static func newLoginBinding(keys: SessionKeys, now: Date = Date()) -> String {
    let expires = Int(now.timeIntervalSince1970 + SessionKeys.loginFormLifetime)
    return keys.sign("login|\(expires)|\(SessionKeys.nonce())")
  }
}

/// Slows down repeated failed logins for one user name or one client address: each failure
/// doubles the wait before the next answer (from 250 ms, at most 5 s), without blocking a
/// thread; a success, or 15 quiet minutes, forgets them.
final class LoginThrottle: Sendable {
  private let failures = Mutex<[String: (count: Int, last: ContinuousClock.Instant)]>([:])

  /// How long to wait before answering a login for `user` from `address`.
  func delay(user: String, address: String) -> Duration {
    let now = ContinuousClock.now
    let count = failures.withLock { table in
      [user.lowercased(), "@" + address].map { key -> Int in
        guard let entry = table[key] else { return 0 }
        if entry.last.duration(to: now) > .seconds(900) {
          table[key] = nil
          return 0
        }
        return entry.count
      }.max() ?? 0
    }
    guard count > 0 else { return .zero }
    return min(.milliseconds(250 << min(count - 1, 5)), .seconds(5))
  }

  func failed(user: String, address: String) {
    failures.withLock { table in
      for key in [user.lowercased(), "@" + address] {
        table[key] = ((table[key]?.count ?? 0) + 1, .now)
      }
      if table.count > 10_000 { table.removeAll() }
    }
  }

  func succeeded(user: String) {
    _ = failures.withLock { $0.removeValue(forKey: user.lowercased()) }
  }
}
