import Foundation

/// A change an agent proposed for a person to approve (`agentWrites = 'propose'`): what it
/// would do to which row, the values the agent saw (the lock at approval), and who proposed
/// it. A front end that can show it to a person keeps it and gives the agent its address.
public struct Proposal: Sendable {
  /// What the change does.
  public enum Kind: String, Sendable {
    case edit, new, delete
  }

  /// What the change does.
  public var kind: Kind
  /// The entity's name.
  public var entity: String
  /// The row's primary key as the agent gave it (nil for a new row).
  public var key: [String]?
  /// The values to set: property names and their JSON texts, in order.
  public var values: [(String, String)]
  /// The values the agent saw: property names and their JSON texts.
  public var seen: [(String, String)]
  /// Who proposed it, as the log names them.
  public var proposer: String

  /// A proposal.
  public init(
    kind: Kind, entity: String, key: [String]?, values: [(String, String)],
    seen: [(String, String)], proposer: String
  ) {
    self.kind = kind
    self.entity = entity
    self.key = key
    self.values = values
    self.seen = seen
    self.proposer = proposer
  }
}

/// Where an agent's proposals go: kept, and answered with the address where a person
/// approves or rejects them (`http://127.0.0.1:8080/-/proposals/…`).
public protocol ProposalDesk: Sendable {
  /// Keeps `proposal`; its address.
  func propose(_ proposal: Proposal) throws -> String
}
