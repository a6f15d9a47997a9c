import Components
import D2SModel
import EnvKeys
import Foundation
import Synchronization

/// What the server keeps of a session, under a hash of its id: whose it is, until when, and
/// a keyed stamp of the user's login name and password when it began (a change of either, by
/// anyone, ends it).
struct SessionRecord: Sendable, Equatable {
  /// The database the session is for.
  var database: String
  /// The user entity's name.
  var entity: String
  /// The user's primary key, as a position token.
  var key: String
  /// When the session ends.
  var expires: Date
  /// ``SessionKeys/stamp(login:password:)`` of the user when the session began.
  var stamp: String
}

/// Where a server keeps its sessions: in memory (one server), or in PostgreSQL for several
/// servers over one database (`--shared-sessions`). Records are found by the SHA-256 of the
/// session id the cookie holds, never by the id itself.
protocol SessionStore: Sendable {
  /// Keeps `record` under `hash`.
  func insert(_ record: SessionRecord, hash: String) async throws
  /// The record under `hash`, if kept and not expired at `now`.
  func record(hash: String, now: Date) async throws -> SessionRecord?
  /// Forgets the record under `hash` (logout, or a stamp that no longer matches).
  func delete(hash: String) async throws
  /// Gives the record under `hash` a new stamp (the user changed their own password or name:
  /// their other sessions end, this one goes on).
  func restamp(hash: String, stamp: String) async throws
}

extension SessionStore {
  /// The hash a session id is kept under: hex SHA-256.
  static func hash(of id: String) -> String {
    // Hashed from the id's own bytes and written as hex into the string's storage (on every
    // logged-in request).
    let digest = SHA256.hash(id)
    return digest.withUnsafeBytes { bytes in
      String(unsafeUninitializedCapacity: bytes.count * 2) { hex in
        let digits: StaticString = "0123456789abcdef"
        for (index, byte) in bytes.enumerated() {
          hex[2 * index] = digits.utf8Start[Int(byte >> 4)]
          hex[2 * index + 1] = digits.utf8Start[Int(byte & 0x0f)]
        }
        return bytes.count * 2
      }
    }
  }
}

/// Sessions kept in this process: a restart logs everyone out.
final class MemorySessionStore: SessionStore {
  private let records = Mutex<[String: SessionRecord]>([:])

  func insert(_ record: SessionRecord, hash: String) async throws {
    // The new session began now: sessions ended before now are forgotten, now and then.
    let now = record.expires.addingTimeInterval(-SessionKeys.sessionLifetime)
    records.withLock { records in
      if records.count >= 1_024, records.count.isMultiple(of: 64) {
        records = records.filter { $0.value.expires > now }
      }
      records[hash] = record
    }
  }

  func record(hash: String, now: Date) async throws -> SessionRecord? {
    records.withLock { records in
      guard let record = records[hash], record.expires > now else { return nil }
      return record
    }
  }

  func delete(hash: String) async throws { _ = records.withLock { $0.removeValue(forKey: hash) } }

  func restamp(hash: String, stamp: String) async throws {
    records.withLock { $0[hash]?.stamp = stamp }
  }

  /// How many sessions are kept (for tests).
  var count: Int { records.withLock { $0.count } }
}

/// Sessions kept in the table `d2s.session` of a PostgreSQL database, shared by every server
/// over it: a logout on one ends the session on all. The schema and table are made on first
/// use; the catalog never reads schema `d2s`, so they are no entity.
final class PostgreSQLSessionStore: SessionStore {
  private let pool: DatabasePool
  private let ready = Atomic<Bool>(false)

  /// The statements that make the table, each safe to run again.
  static let setUp = [
    "CREATE SCHEMA IF NOT EXISTS d2s",
    """
    CREATE TABLE IF NOT EXISTS d2s.session (
      id_hash text PRIMARY KEY, database_name text NOT NULL, entity text NOT NULL,
      user_key text NOT NULL, expires_at double precision NOT NULL, stamp text NOT NULL)
    """,
  ]

  /// A store writing through `pool`'s connections (opened writable, whatever the pages').
  init(pool: DatabasePool) { self.pool = pool }

  private func run(_ sql: String, _ bindings: [DatabaseValue], columns: Int = 0) async throws
    -> [[DatabaseValue]]
  {
    let ready = ready.load(ordering: .acquiring)
    let rows = try await pool.withDatabase { database in
      if !ready {
        for statement in Self.setUp {
          do {
            try database.adaptor.execute(SQLStatement(raw: statement))
          } catch {
            // Two servers making the schema at once: one of them loses the race, and the
            // statement, run again, finds it made.
            try database.adaptor.execute(SQLStatement(raw: statement))
          }
        }
      }
      var rows: [[DatabaseValue]] = []
      if columns == 0 {
        try database.adaptor.execute(SQLStatement(raw: sql, bindings))
      } else {
        try database.adaptor.query(
          SQLStatement(raw: sql, bindings), columns: Array(repeating: nil, count: columns)
        ) { rows.append($0) }
      }
      return rows
    }
    self.ready.store(true, ordering: .releasing)
    return rows
  }

  func insert(_ record: SessionRecord, hash: String) async throws {
    _ = try await run(
      "DELETE FROM d2s.session WHERE expires_at < $1",
      [.double(Date().timeIntervalSince1970)])
    _ = try await run(
      """
      INSERT INTO d2s.session (id_hash, database_name, entity, user_key, expires_at, stamp)
      VALUES ($1, $2, $3, $4, $5, $6)
      """,
      [
        .string(hash), .string(record.database), .string(record.entity), .string(record.key),
        .double(record.expires.timeIntervalSince1970), .string(record.stamp),
      ])
  }

  func record(hash: String, now: Date) async throws -> SessionRecord? {
    let rows = try await run(
      """
      SELECT database_name, entity, user_key, expires_at::text, stamp FROM d2s.session
      WHERE id_hash = $1 AND expires_at > $2
      """,
      [.string(hash), .double(now.timeIntervalSince1970)], columns: 5)
    guard let row = rows.first, row.count == 5, let database = row[0].stringValue,
      let entity = row[1].stringValue, let key = row[2].stringValue,
      let expires = row[3].stringValue.flatMap(Double.init), let stamp = row[4].stringValue
    else { return nil }
    return SessionRecord(
      database: database, entity: entity, key: key,
      expires: Date(timeIntervalSince1970: expires), stamp: stamp)
  }

  func delete(hash: String) async throws {
    _ = try await run("DELETE FROM d2s.session WHERE id_hash = $1", [.string(hash)])
  }

  func restamp(hash: String, stamp: String) async throws {
    _ = try await run(
      "UPDATE d2s.session SET stamp = $2 WHERE id_hash = $1", [.string(hash), .string(stamp)])
  }
}
