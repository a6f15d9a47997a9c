import Components
import D2SModel
import EnvKeys
import Foundation
import Synchronization

/// A logged-in user's session: its cookie holds a random id, signed, and nothing else; the
/// server keeps the ``SessionRecord`` under a hash of the id, so that logging out, or a
/// change of the user's password or login name, ends it.
struct WebSession: Sendable {
  /// The cookie holding a session.
  static let cookie = "d2s_session"
  /// The cookie holding a login form's pre-session.
  static let loginCookie = "d2s_login"

  /// What the server keeps of the session.
  let record: SessionRecord
  /// The hash of the session id, the record's key.
  let hash: String
  /// The signed cookie value (CSRF tokens are bound to it).
  let token: String

  var entity: String { record.entity }
  var database: String { record.database }
  /// The user's key (empty when it cannot be read, which matches no user).
  var key: [DatabaseValue] { (try? PositionToken.decode(record.key)) ?? [] }

  /// The session of `request`'s cookie, when its signature is right and the server keeps a
  /// record of it that has not expired; else nil (an anonymous visitor).
  static func find(
    _ request: WebRequest, keys: SessionKeys, store: any SessionStore,
    now: Date = DependencyValues.current.clock.now
  ) async throws -> WebSession? {
    guard let token = request.cookies[cookie], let id = id(of: token, keys: keys) else {
      return nil
    }
    let hash = MemorySessionStore.hash(of: id)
    guard let record = try await store.record(hash: hash, now: now) else { return nil }
    return WebSession(record: record, hash: hash, token: token)
  }

  /// The session id a signed cookie value holds.
  static func id(of token: String, keys: SessionKeys) -> String? {
    guard let payload = keys.verify(token) else { return nil }
    // `v3|` and the id, read as bytes (on every logged-in request).
    let version = "v3|".utf8
    let utf8 = payload.utf8
    guard utf8.starts(with: version) else { return nil }
    let id = utf8.dropFirst(version.count)
    guard !id.contains(UInt8(ascii: "|")), id.count >= 43 else { return nil }
    return String(Substring(id))
  }

  /// The record of a new session for `user` of `database`; nil when the user's key cannot be
  /// written.
  static func record(
    for user: DatabaseObject, database: String, keys: SessionKeys,
    now: Date = DependencyValues.current.clock.now
  ) -> SessionRecord? {
    guard let key = PositionToken.encode(user.primaryKeyValues) else { return nil }
    return SessionRecord(
      database: database, entity: user.entity.name, key: key,
      expires: now.addingTimeInterval(SessionKeys.sessionLifetime),
      stamp: stamp(of: user, keys: keys))
  }

  /// Begins a session of `record`, kept in `store` under a new random id: the cookie's value
  /// (the id, signed).
  static func begin(_ record: SessionRecord, keys: SessionKeys, store: any SessionStore)
    async throws -> String
  {
    let id = SessionKeys.nonce(bytes: 32)
    try await store.insert(record, hash: MemorySessionStore.hash(of: id))
    return keys.sign("v3|" + id)
  }

  /// A keyed digest of `user`'s login name and stored password (never in a cookie): a change
  /// of either ends the user's sessions.
  static func stamp(of user: DatabaseObject, keys: SessionKeys) -> String {
    func text(_ attribute: Attribute?) -> String {
      guard let attribute else { return "" }
      return user.databaseValue(forAttribute: attribute.name)?.description ?? ""
    }
    return keys.token(
      "stamp",
      boundTo: text(UserEntity.loginAttribute(of: user.entity)) + "\u{0}"
        + text(UserEntity.passwordAttribute(of: user.entity)))
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

/// The stamp a save gave the session's own user (a new login name), handed out of the
/// request's connection to be kept in the session's record.
final class NewStamp: Sendable {
  let stamp = Mutex<String?>(nil)
}

/// Slows down repeated failed logins for one user name and for one client address: each
/// attempt reserves the next one's earliest time (250 ms after a first failure, doubling up to
/// 5 s), so attempts sent at once are answered 429 at once, without blocking a thread, and
/// without locking the user out of other addresses for longer than that. What it holds is
/// forgotten: a name's or an address's failures after ``quietPeriod`` without an attempt, and
/// both by a successful login.
final class LoginThrottle: Sendable {
  private struct Entry {
    var failures = 0
    var nextAllowed: ContinuousClock.Instant?
    var last: ContinuousClock.Instant
  }
  private struct Tables {
    var users: [String: Entry] = [:]
    var addresses: [String: Entry] = [:]
  }
  private let tables = Mutex(Tables())
  /// The most entries a table keeps; beyond, quiet ones are forgotten.
  static let capacity = 10_000
  /// How long a name or an address must make no attempt for its failures to be forgotten.
  static let quietPeriod: Duration = .seconds(30)

  static func delay(after failures: Int) -> Duration {
    failures == 0 ? .zero : min(.milliseconds(250 << min(failures - 1, 5)), .seconds(5))
  }

  /// The entry of `key` in `table` as of `now`: a new one when it has been quiet long enough.
  private static func entry(
    _ key: String, in table: [String: Entry], now: ContinuousClock.Instant
  ) -> Entry {
    guard let entry = table[key], entry.last.duration(to: now) < quietPeriod else {
      return Entry(last: now)
    }
    return entry
  }

  /// Nil when an attempt for `user` from `address` may go ahead now (and reserves the window
  /// after it, as if it failed); else how long to wait.
  func reserve(user: String, address: String, now: ContinuousClock.Instant = .now) -> Duration? {
    tables.withLock { tables in
      let userKey = CaseFold.lowercased(user)
      let entries = [
        Self.entry(userKey, in: tables.users, now: now),
        Self.entry(address, in: tables.addresses, now: now),
      ]
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

  func failed(user: String, address: String, now: ContinuousClock.Instant = .now) {
    tables.withLock { tables in
      for index in 0..<2 {
        let key = index == 0 ? CaseFold.lowercased(user) : address
        var entry = Self.entry(key, in: index == 0 ? tables.users : tables.addresses, now: now)
        entry.failures += 1
        entry.nextAllowed = now + Self.delay(after: entry.failures)
        entry.last = now
        if index == 0 { tables.users[key] = entry } else { tables.addresses[key] = entry }
      }
    }
  }

  /// A successful login forgets the name's and the address's failures.
  func succeeded(user: String, address: String) {
    tables.withLock { tables in
      tables.users[CaseFold.lowercased(user)] = nil
      tables.addresses[address] = nil
    }
  }

  /// Forgets quiet entries once a table is full.
  private static func evict(_ table: inout [String: Entry], now: ContinuousClock.Instant) {
    guard table.count > capacity else { return }
    table = table.filter { $0.value.last.duration(to: now) < quietPeriod }
  }
}
