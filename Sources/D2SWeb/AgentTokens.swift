import EnvKeys
import Foundation
import Synchronization

/// What an agent's bearer token lets it do: read only, propose changes for a person to
/// approve, or write as the rules let its user.
enum TokenScope: String, CaseIterable, Sendable {
  case read, propose, write
}

/// A bearer token a logged-in person made for an agent, kept under the SHA-256 of the token
/// (never the token itself): whose it is, what it may do, and the user's stamp when it was made
/// (a change of the user's login name or password ends it, as it ends their sessions).
struct AgentToken: Sendable, Equatable {
  /// The database it is for.
  var database: String
  /// The user entity's name.
  var entity: String
  /// The user's primary key, as a position token.
  var key: String
  /// What it may do.
  var scope: TokenScope
  /// The name its maker gave it (`laptop agent`).
  var label: String
  /// When it was made.
  var created: Date
  /// The user's stamp when it was made.
  var stamp: String
}

/// Where a server keeps agents' tokens, under the SHA-256 of each: in memory (one server), or
/// in PostgreSQL beside the sessions for several servers (`--shared-sessions`).
protocol AgentTokenStore: Sendable {
  /// Keeps `token` under `hash`.
  func insert(_ token: AgentToken, hash: String) throws
  /// The token under `hash`.
  func token(hash: String) throws -> AgentToken?
  /// The tokens of one user, by hash, oldest first.
  func tokens(database: String, entity: String, key: String) throws
    -> [(hash: String, token: AgentToken)]
  /// Forgets the token under `hash`.
  func delete(hash: String) throws
}

extension AgentTokenStore {
  /// A new token for `record`: its text, shown once (`d2s_…`).
  func make(_ record: AgentToken) throws -> String {
    let token = "d2s_" + SessionKeys.nonce(bytes: 32)
    try insert(record, hash: MemorySessionStore.hash(of: token))
    return token
  }

  /// The token's record, by the token's text.
  func record(of token: String) throws -> (hash: String, token: AgentToken)? {
    let hash = MemorySessionStore.hash(of: token)
    return try self.token(hash: hash).map { (hash, $0) }
  }

  /// Ends the token under `hash` when it is the user's.
  func revoke(hash: String, database: String, entity: String, key: String) throws {
    guard let token = try token(hash: hash), token.database == database,
      token.entity == entity, token.key == key
    else { return }
    try delete(hash: hash)
  }
}

/// The agents' tokens of this server, in memory: a restart ends them.
final class MemoryAgentTokenStore: AgentTokenStore {
  private let tokens = Mutex<[String: AgentToken]>([:])

  func insert(_ token: AgentToken, hash: String) { tokens.withLock { $0[hash] = token } }

  func token(hash: String) -> AgentToken? { tokens.withLock { $0[hash] } }

  func tokens(database: String, entity: String, key: String) -> [(hash: String, token: AgentToken)]
  {
    tokens.withLock { tokens in
      tokens.filter {
        $0.value.database == database && $0.value.entity == entity && $0.value.key == key
      }
      .map { ($0.key, $0.value) }.sorted { $0.1.created < $1.1.created }
    }
  }

  func delete(hash: String) { _ = tokens.withLock { $0.removeValue(forKey: hash) } }
}

/// Agents' tokens in the table `d2s.agent_token` of the PostgreSQL database the sessions are
/// kept in: a token made on one server works on all, and a revoke on one ends it on all.
final class PostgreSQLAgentTokenStore: AgentTokenStore {
  private let records: SharedRecords

  /// The statement that makes the table.
  static let setUp = [
    """
    CREATE TABLE IF NOT EXISTS d2s.agent_token (
      token_hash text PRIMARY KEY, database_name text NOT NULL, entity text NOT NULL,
      user_key text NOT NULL, scope text NOT NULL, label text NOT NULL,
      created_at double precision NOT NULL, stamp text NOT NULL)
    """
  ]

  /// Tokens in the database at `url`.
  init(url: String) { records = SharedRecords(url: url, setUp: Self.setUp) }

  func insert(_ token: AgentToken, hash: String) throws {
    try records.run(
      """
      INSERT INTO d2s.agent_token
        (token_hash, database_name, entity, user_key, scope, label, created_at, stamp)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
      """,
      [
        .string(hash), .string(token.database), .string(token.entity), .string(token.key),
        .string(token.scope.rawValue), .string(token.label),
        .double(token.created.timeIntervalSince1970), .string(token.stamp),
      ])
  }

  private static let columns =
    "token_hash, database_name, entity, user_key, scope, label, created_at::text, stamp"

  private static func decode(_ row: [DatabaseValue]) -> (hash: String, token: AgentToken)? {
    guard row.count == 8, let hash = row[0].stringValue, let database = row[1].stringValue,
      let entity = row[2].stringValue, let key = row[3].stringValue,
      let scope = row[4].stringValue.flatMap(TokenScope.init(rawValue:)),
      let label = row[5].stringValue, let created = row[6].stringValue.flatMap(Double.init),
      let stamp = row[7].stringValue
    else { return nil }
    return (
      hash,
      AgentToken(
        database: database, entity: entity, key: key, scope: scope, label: label,
        created: Date(timeIntervalSince1970: created), stamp: stamp)
    )
  }

  func token(hash: String) throws -> AgentToken? {
    try records.run(
      "SELECT \(Self.columns) FROM d2s.agent_token WHERE token_hash = $1", [.string(hash)],
      columns: 8
    ).first.flatMap(Self.decode)?.token
  }

  func tokens(database: String, entity: String, key: String) throws
    -> [(hash: String, token: AgentToken)]
  {
    try records.run(
      """
      SELECT \(Self.columns) FROM d2s.agent_token
      WHERE database_name = $1 AND entity = $2 AND user_key = $3 ORDER BY created_at
      """,
      [.string(database), .string(entity), .string(key)], columns: 8
    ).compactMap(Self.decode)
  }

  func delete(hash: String) throws {
    try records.run("DELETE FROM d2s.agent_token WHERE token_hash = $1", [.string(hash)])
  }
}

/// How many calls each token made in the current minute, on this server (a limit per server:
/// servers sharing tokens each count their own).
final class CallLimiter: Sendable {
  private let calls = Mutex<[String: (minute: Int, count: Int)]>([:])
  /// The most calls one token makes in a minute.
  let callsPerMinute: Int

  /// A limiter allowing `callsPerMinute`.
  init(callsPerMinute: Int = 600) { self.callsPerMinute = callsPerMinute }

  /// Counts a call of the token under `hash`: false when it made ``callsPerMinute`` already.
  func admit(hash: String, now: Date) -> Bool {
    let minute = Int(now.timeIntervalSince1970 / 60)
    return calls.withLock { calls in
      var entry = calls[hash] ?? (minute, 0)
      if entry.minute != minute { entry = (minute, 0) }
      guard entry.count < callsPerMinute else { return false }
      entry.count += 1
      calls[hash] = entry
      if calls.count > 4_096 { calls = calls.filter { $0.value.minute == minute } }
      return true
    }
  }
}
