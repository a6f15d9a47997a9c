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

/// The agents' tokens of this server, in memory (a restart ends them), and how many calls each
/// made in the current minute (rate limit).
final class AgentTokenStore: Sendable {
  private let tokens = Mutex<[String: AgentToken]>([:])
  private let calls = Mutex<[String: (minute: Int, count: Int)]>([:])
  /// The most calls one token makes in a minute.
  let callsPerMinute: Int

  init(callsPerMinute: Int = 600) { self.callsPerMinute = callsPerMinute }

  /// A new token for `record`: its text, shown once (`d2s_…`).
  func make(_ record: AgentToken) -> String {
    let token = "d2s_" + SessionKeys.nonce(bytes: 32)
    tokens.withLock { $0[MemorySessionStore.hash(of: token)] = record }
    return token
  }

  /// The token's record, by the token's text.
  func record(of token: String) -> (hash: String, token: AgentToken)? {
    let hash = MemorySessionStore.hash(of: token)
    return tokens.withLock { $0[hash] }.map { (hash, $0) }
  }

  /// The tokens of one user, by hash, oldest first.
  func tokens(database: String, entity: String, key: String) -> [(hash: String, token: AgentToken)]
  {
    tokens.withLock { tokens in
      tokens.filter {
        $0.value.database == database && $0.value.entity == entity && $0.value.key == key
      }
      .map { ($0.key, $0.value) }.sorted { $0.1.created < $1.1.created }
    }
  }

  /// Ends the token under `hash` when it is the user's.
  func revoke(hash: String, database: String, entity: String, key: String) {
    tokens.withLock { tokens in
      guard let token = tokens[hash], token.database == database, token.entity == entity,
        token.key == key
      else { return }
      tokens[hash] = nil
    }
  }

  /// Ends the token under `hash` (its user's stamp changed).
  func forget(hash: String) { _ = tokens.withLock { $0.removeValue(forKey: hash) } }

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
