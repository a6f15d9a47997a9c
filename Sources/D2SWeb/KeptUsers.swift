import D2SModel
import EnvKeys
import RuleCore
import Synchronization

/// The session users a pooled connection read for its last requests, reused while the
/// database is unchanged: a logged-in request then neither reads its user's row again nor
/// works out the user's title and the session's tokens again (and rule answers that read the
/// user are found in the rule cache, the user being the same object).
///
/// An entry holds while the connection's content version
/// (``DatabaseAdaptor/contentVersion()``: another connection's commit, this connection's own
/// writes), the object's change counter and the rules (the title's) are those it was kept
/// with. A database without a content version (PostgreSQL), or a connection inside a
/// transaction, reads the row every time.
final class KeptUsers: Sendable {
  /// One session's user as read.
  struct Entry: Sendable {
    /// The session's token, its user's entity and key.
    let session: String
    let entity: String
    let key: [DatabaseValue]
    /// The connection's content version when the row was read.
    let version: ContentVersion
    /// The rules the title was worked out by (``RuleEngine/identity``: no reference, so rules
    /// since replaced are not kept alive for it, and no weak one, which would slow every
    /// retain of the engine).
    let engine: Int
    /// The user, and its change counter when kept.
    let user: DatabaseObject
    let userVersion: Int
    /// The user's stamp (``WebSession/stamp(of:keys:)``), title and the session's CSRF token.
    let stamp: String
    let title: String
    let csrf: String
  }

  /// The most sessions kept per connection (the most recent first).
  static let capacity = 8

  private let entries = Mutex<[Entry]>([])

  /// The entry of `session` for `entity` and `key`, if the database, the object and the rules
  /// (`engine`) are unchanged since it was kept.
  func entry(
    session: String, entity: String, key: [DatabaseValue], version: ContentVersion,
    engine: RuleEngine
  ) -> Entry? {
    entries.withLock { entries in
      guard
        let index = entries.firstIndex(where: {
          $0.session == session && $0.entity == entity && $0.key == key
        })
      else { return nil }
      let entry = entries[index]
      guard entry.version == version, entry.engine == engine.identity,
        entry.user.ruleCacheVersion == entry.userVersion
      else {
        entries.remove(at: index)
        return nil
      }
      if index > 0 {
        entries.remove(at: index)
        entries.insert(entry, at: 0)
      }
      return entry
    }
  }

  /// Keeps `entry`, the oldest going when there are more than ``capacity``.
  func keep(_ entry: Entry) {
    entries.withLock { entries in
      entries.removeAll { $0.session == entry.session }
      entries.insert(entry, at: 0)
      if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
    }
  }
}
