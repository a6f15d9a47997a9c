import D2SMCP
import Foundation
import Synchronization

/// Agents' proposals kept by this server, in memory (a restart drops them), each for 24 hours
/// under a random id, until a person approves or rejects it.
final class ProposalStore: Sendable {
  /// Where a proposal stands.
  enum State: Sendable, Equatable {
    case pending
    case approved(by: String)
    case rejected(by: String)
  }

  /// A kept proposal.
  struct Entry: Sendable {
    let proposal: Proposal
    let database: String
    let created: Date
    var state: State
  }

  /// How long a proposal waits for a person.
  static let lifetime: TimeInterval = 24 * 3600
  private let entries = Mutex<[String: Entry]>([:])

  /// The most proposals kept at once, and waiting from one proposer.
  static let capacity = 1_000
  static let perProposer = 100

  /// Keeps `proposal`; its id, or nil when too many wait already (from its proposer, or in
  /// all).
  func keep(_ proposal: Proposal, database: String, now: Date = Date()) -> String? {
    let id = SessionKeys.nonce(bytes: 16)
    return entries.withLock { entries -> String? in
      if entries.count >= Self.capacity {
        entries = entries.filter {
          now.timeIntervalSince($0.value.created) < Self.lifetime && $0.value.state == .pending
        }
      }
      let waiting = entries.values.filter {
        $0.state == .pending && $0.proposal.proposer == proposal.proposer
      }.count
      guard entries.count < Self.capacity, waiting < Self.perProposer else { return nil }
      entries[id] = Entry(proposal: proposal, database: database, created: now, state: .pending)
      return id
    }
  }

  /// The proposal `id`, while it has not expired.
  func entry(_ id: String, now: Date = Date()) -> Entry? {
    entries.withLock { entries in
      guard let entry = entries[id], now.timeIntervalSince(entry.created) < Self.lifetime else {
        return nil
      }
      return entry
    }
  }

  /// Decides proposal `id` once: false when it was decided already.
  func decide(_ id: String, _ state: State) -> Bool {
    entries.withLock { entries in
      guard entries[id]?.state == .pending else { return false }
      entries[id]?.state = state
      return true
    }
  }

  /// Undoes a decision that could not be carried out (a conflict): the proposal waits again.
  func reopen(_ id: String) { entries.withLock { $0[id]?.state = .pending } }
}

/// The desk an agent of `/-/mcp` proposes at: proposals kept in `store`, answered with the
/// address of their page on this server.
struct WebProposalDesk: ProposalDesk {
  let store: ProposalStore
  let database: String
  /// `http://HOST` as the agent reached the server.
  let origin: String

  func propose(_ proposal: Proposal) throws -> String {
    guard let id = store.keep(proposal, database: database) else {
      throw ProposalError(message: "too many proposals are waiting for a person: try later")
    }
    return origin + "/-/proposals/" + id
  }
}
