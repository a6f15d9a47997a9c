import Components
import Crypto
import D2SModel
import EnvKeys
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
  /// The database the session is for.
  let database: String
  /// A digest of the user's stored password when the session began: a changed password
  /// ends every session.
  let stamp: String
  /// The signed cookie value (CSRF tokens are bound to it).
  let token: String

  /// The session of `request`'s cookie, when its signature is right and it has not expired.
  init?(_ request: WebRequest, keys: SessionKeys, now: Date = DependencyValues.current.clock.now) {
    guard let token = request.cookies[Self.cookie], let payload = keys.verify(token) else {
      return nil
    }
    let parts = payload.split(separator: "|", maxSplits: 5, omittingEmptySubsequences: false)
    guard parts.count == 6, parts[0] == "v2", let seconds = Double(parts[1]),
      Date(timeIntervalSince1970: seconds) > now,
      let database = HTML.percentDecoded(parts[2]),
      let entity = HTML.percentDecoded(parts[3]),
      let key = try? PositionToken.decode(String(parts[4]))
    else { return nil }
    self.entity = entity
    self.key = key
    self.expires = Date(timeIntervalSince1970: seconds)
    self.database = database
    self.stamp = String(parts[5])
    self.token = token
  }

  /// A new session cookie's value for `user` of `database`; nil when the user's key cannot
  /// be written.
  static func cookieValue(
    for user: DatabaseObject, database: String, keys: SessionKeys,
    now: Date = DependencyValues.current.clock.now
  ) -> String? {
    guard let key = PositionToken.encode(user.primaryKeyValues) else { return nil }
    let expires = Int(now.timeIntervalSince1970 + SessionKeys.sessionLifetime)
    return keys.sign(
      "v2|\(expires)|\(HTML.pathSegment(database))|\(HTML.pathSegment(user.entity.name))|\(key)|\(stamp(of: user))"
    )
  }

  /// A digest of `user`'s stored password (empty when the entity has none).
  static func stamp(of user: DatabaseObject) -> String {
    guard let attribute = UserEntity.passwordAttribute(of: user.entity) else { return "" }
    let stored = user.databaseValue(forAttribute: attribute.name)?.description ?? ""
    return SessionKeys.base64URL(Data(SHA256.hash(data: Data(stored.utf8)).prefix(12)))
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
  static func loginBinding(
    _ request: WebRequest, keys: SessionKeys, now: Date = DependencyValues.current.clock.now
  )
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
  static func newLoginBinding(keys: SessionKeys, now: Date = DependencyValues.current.clock.now)
    -> String
  {
    let expires = Int(now.timeIntervalSince1970 + SessionKeys.loginFormLifetime)
    return keys.sign("login|\(expires)|\(SessionKeys.nonce())")
  }
}

/// Slows down repeated failed logins for one user name and for one client address: each
/// attempt reserves the next one's earliest time (250 ms after a first failure, doubling up to
/// 5 s), so attempts sent at once are answered 429 at once, without blocking a thread, and
/// without locking the user out of other addresses for longer than that.
final class LoginThrottle: Sendable {
  private struct Entry {
    var failures = 0
    var nextAllowed: ContinuousClock.Instant?
    var last = ContinuousClock.now
  }
  private struct Tables {
    var users: [String: Entry] = [:]
    var addresses: [String: Entry] = [:]
  }
  private let tables = Mutex(Tables())
  /// The most entries a table keeps; beyond, quiet ones are forgotten.
  static let capacity = 10_000

  static func delay(after failures: Int) -> Duration {
    failures == 0 ? .zero : min(.milliseconds(250 << min(failures - 1, 5)), .seconds(5))
  }

  /// Nil when an attempt for `user` from `address` may go ahead now (and reserves the window
  /// after it, as if it failed); else how long to wait.
  func reserve(user: String, address: String) -> Duration? {
    let now = ContinuousClock.now
    return tables.withLock { tables in
      let userKey = user.lowercased()
      let entries = [tables.users[userKey] ?? Entry(), tables.addresses[address] ?? Entry()]
      let wait =
        entries.compactMap { entry in
          entry.nextAllowed.map { now < $0 ? now.duration(to: $0) : .zero }
        }.max() ?? .zero
      if wait > .zero { return wait }
      // A user name gets one attempt at a time; an address is held back once it has failed
      // (many people may share one address).
      for (index, var entry) in entries.enumerated() where index == 0 || entry.failures > 0 {
        entry.nextAllowed = now + Self.delay(after: entry.failures + 1)
        entry.last = now
        if index == 0 { tables.users[userKey] = entry } else { tables.addresses[address] = entry }
      }
      Self.evict(&tables.users, now: now)
      Self.evict(&tables.addresses, now: now)
      return nil
    }
  }

  func failed(user: String, address: String) {
    let now = ContinuousClock.now
    tables.withLock { tables in
      for index in 0..<2 {
        let key = index == 0 ? user.lowercased() : address
        var entry = (index == 0 ? tables.users[key] : tables.addresses[key]) ?? Entry()
        entry.failures += 1
        entry.nextAllowed = now + Self.delay(after: entry.failures)
        entry.last = now
        if index == 0 { tables.users[key] = entry } else { tables.addresses[key] = entry }
      }
    }
  }

  func succeeded(user: String, address: String) {
    tables.withLock { tables in
      tables.users[user.lowercased()] = nil
      if tables.addresses[address]?.failures == 0 { tables.addresses[address] = nil }
    }
  }

  /// Forgets entries quiet for 15 minutes once a table is full.
  private static func evict(_ table: inout [String: Entry], now: ContinuousClock.Instant) {
    guard table.count > capacity else { return }
    table = table.filter { $0.value.last.duration(to: now) < .seconds(900) }
  }
}
