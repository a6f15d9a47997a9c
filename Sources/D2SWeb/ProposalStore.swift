import D2SMCP
import EnvKeys
import Foundation
import Synchronization

/// Where a proposal stands.
enum ProposalState: Sendable, Equatable {
  case pending
  case approved(by: String)
  case rejected(by: String)
}

/// A kept proposal.
struct ProposalEntry: Sendable {
  let proposal: Proposal
  let database: String
  let created: Date
  var state: ProposalState
}

/// Where a server keeps agents' proposals, each for 24 hours under a random id until a person
/// approves or rejects it: in memory (one server), or in PostgreSQL beside the sessions for
/// several servers (`--shared-sessions`). Never as entities.
protocol ProposalStore: Sendable {
  /// Keeps `proposal`; its id, or nil when too many wait already (from its proposer, or in
  /// all).
  func keep(_ proposal: Proposal, database: String, now: Date) throws -> String?
  /// The proposal `id`, while it has not expired at `now`.
  func entry(_ id: String, now: Date) throws -> ProposalEntry?
  /// Decides pending proposal `id` once: false when it was decided already.
  func decide(_ id: String, _ state: ProposalState) throws -> Bool
  /// Undoes a decision that could not be carried out (a conflict): the proposal waits again.
  func reopen(_ id: String) throws
}

/// How long a proposal waits, and how many are kept.
enum ProposalLimits {
  /// How long a proposal waits for a person.
  static let lifetime: TimeInterval = 24 * 3600
  /// The most proposals kept at once.
  static let capacity = 1_000
  /// The most proposals waiting from one proposer.
  static let perProposer = 100
}

/// Agents' proposals kept by this server, in memory: a restart drops them.
final class MemoryProposalStore: ProposalStore {
  private let entries = Mutex<[String: ProposalEntry]>([:])

  func keep(_ proposal: Proposal, database: String, now: Date) -> String? {
    let id = SessionKeys.nonce(bytes: 16)
    return entries.withLock { entries -> String? in
      if entries.count >= ProposalLimits.capacity {
        entries = entries.filter {
          now.timeIntervalSince($0.value.created) < ProposalLimits.lifetime
            && $0.value.state == .pending
        }
      }
      let waiting = entries.values.filter {
        $0.state == .pending && $0.proposal.proposer == proposal.proposer
      }.count
      guard entries.count < ProposalLimits.capacity, waiting < ProposalLimits.perProposer else {
        return nil
      }
      entries[id] = ProposalEntry(
        proposal: proposal, database: database, created: now, state: .pending)
      return id
    }
  }

  func entry(_ id: String, now: Date) -> ProposalEntry? {
    entries.withLock { entries in
      guard let entry = entries[id],
        now.timeIntervalSince(entry.created) < ProposalLimits.lifetime
      else { return nil }
      return entry
    }
  }

  func decide(_ id: String, _ state: ProposalState) -> Bool {
    entries.withLock { entries in
      guard entries[id]?.state == .pending else { return false }
      entries[id]?.state = state
      return true
    }
  }

  func reopen(_ id: String) { entries.withLock { $0[id]?.state = .pending } }
}

/// Agents' proposals in the table `d2s.proposal` of the PostgreSQL database the sessions are
/// kept in: proposed through one server, decided on any, once.
final class PostgreSQLProposalStore: ProposalStore {
  private let records: SharedRecords

  /// The statement that makes the table.
  static let setUp = [
    """
    CREATE TABLE IF NOT EXISTS d2s.proposal (
      id text PRIMARY KEY, database_name text NOT NULL, proposer text NOT NULL,
      created_at double precision NOT NULL, state text NOT NULL, decided_by text,
      body text NOT NULL)
    """
  ]

  /// Proposals in the database at `url`.
  init(url: String) { records = SharedRecords(url: url, setUp: Self.setUp) }

  func keep(_ proposal: Proposal, database: String, now: Date) throws -> String? {
    let expired = now.timeIntervalSince1970 - ProposalLimits.lifetime
    let id = SessionKeys.nonce(bytes: 16)
    // Counted and inserted under one lock that every server takes (a transaction-scoped
    // advisory lock): two servers cannot both pass a limit. Only waiting proposals count.
    return try records.inTransaction { run -> String? in
      _ = try run("SELECT pg_advisory_xact_lock(2026112801)", [], 1)
      _ = try run("DELETE FROM d2s.proposal WHERE created_at < $1", [.double(expired)], 0)
      let rows = try run(
        """
        INSERT INTO d2s.proposal (id, database_name, proposer, created_at, state, body)
        SELECT $1, $2, $3, $4, 'pending', $5
        WHERE (SELECT count(*) FROM d2s.proposal WHERE state = 'pending') < $6
          AND (SELECT count(*) FROM d2s.proposal WHERE proposer = $3 AND state = 'pending') < $7
        RETURNING id
        """,
        [
          .string(id), .string(database), .string(proposal.proposer),
          .double(now.timeIntervalSince1970), .string(ProposalCoding.encode(proposal)),
          .int(ProposalLimits.capacity), .int(ProposalLimits.perProposer),
        ], 1)
      return rows.isEmpty ? nil : id
    }
  }

  func entry(_ id: String, now: Date) throws -> ProposalEntry? {
    let rows = try records.run(
      """
      SELECT database_name, created_at::text, state, decided_by, body FROM d2s.proposal
      WHERE id = $1 AND created_at >= $2
      """,
      [.string(id), .double(now.timeIntervalSince1970 - ProposalLimits.lifetime)], columns: 5)
    guard let row = rows.first, row.count == 5, let database = row[0].stringValue,
      let created = row[1].stringValue.flatMap(Double.init), let state = row[2].stringValue,
      let body = row[4].stringValue, let proposal = ProposalCoding.decode(body)
    else { return nil }
    let by = row[3].stringValue ?? ""
    return ProposalEntry(
      proposal: proposal, database: database, created: Date(timeIntervalSince1970: created),
      state: state == "approved"
        ? .approved(by: by) : state == "rejected" ? .rejected(by: by) : .pending)
  }

  func decide(_ id: String, _ state: ProposalState) throws -> Bool {
    let (name, by): (String, String)
    switch state {
    case .pending: return false
    case .approved(let who): (name, by) = ("approved", who)
    case .rejected(let who): (name, by) = ("rejected", who)
    }
    return try !records.run(
      """
      UPDATE d2s.proposal SET state = $2, decided_by = $3
      WHERE id = $1 AND state = 'pending' RETURNING id
      """,
      [.string(id), .string(name), .string(by)], columns: 1
    ).isEmpty
  }

  func reopen(_ id: String) throws {
    try records.run(
      "UPDATE d2s.proposal SET state = 'pending', decided_by = NULL WHERE id = $1",
      [.string(id)])
  }
}

/// A proposal as JSON text, for a store outside this process.
enum ProposalCoding {
  /// `proposal` as a JSON object.
  static func encode(_ proposal: Proposal) -> String {
    let object: [String: Any] = [
      "kind": proposal.kind.rawValue, "entity": proposal.entity,
      "key": proposal.key.map { $0 as Any } ?? NSNull(),
      "values": proposal.values.map { [$0.0, $0.1] },
      "seen": proposal.seen.map { [$0.0, $0.1] }, "proposer": proposal.proposer,
    ]
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The proposal `text` holds; nil for text ``encode(_:)`` did not write.
  static func decode(_ text: String) -> Proposal? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let kind = (object["kind"] as? String).flatMap(Proposal.Kind.init(rawValue:)),
      let entity = object["entity"] as? String, let proposer = object["proposer"] as? String,
      let values = pairs(object["values"]), let seen = pairs(object["seen"])
    else { return nil }
    return Proposal(
      kind: kind, entity: entity, key: object["key"] as? [String], values: values, seen: seen,
      proposer: proposer)
  }

  private static func pairs(_ value: Any?) -> [(String, String)]? {
    guard let list = value as? [[String]] else { return nil }
    return list.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
  }
}

/// The desk an agent of `/-/mcp` proposes at: proposals kept in `store`, answered with the
/// address of their page on this server.
struct WebProposalDesk: ProposalDesk {
  let store: any ProposalStore
  let database: String
  /// `http://HOST` as the agent reached the server.
  let origin: String

  func propose(_ proposal: Proposal) throws -> String {
    guard let id = try store.keep(proposal, database: database, now: Date()) else {
      throw ProposalError(message: "too many proposals are waiting for a person: try later")
    }
    return origin + "/-/proposals/" + id
  }
}
