import Components
import D2SModel
import Foundation
import RuleCore

extension Proposal {
  /// Makes the change as `user` (a person, not an agent: `client` is not `mcp`), under that
  /// user's rules and the lock of the values the agent saw: a column changed since is a
  /// conflict and nothing is written. Returns the changed row's page as JSON (for a delete,
  /// what was deleted).
  public func approve(pages: PageApplication, user: DatabaseObject) throws -> String {
    var tools = AgentTools(pages: pages, user: user)
    tools.approving()
    var arguments: [String: Any] = ["entity": entity]
    if let key { arguments["key"] = key }
    func object(_ pairs: [(String, String)]) -> [String: Any] {
      pairs.reduce(into: [String: Any]()) { result, pair in
        result[pair.0] =
          (try? JSONSerialization.jsonObject(
            with: Data(pair.1.utf8), options: [.fragmentsAllowed])) ?? NSNull()
      }
    }
    arguments["values"] = object(values)
    arguments["seen"] = object(seen)
    let call = Arguments(arguments, tool: kind.rawValue)
    do {
      switch kind {
      case .edit: return try tools.edit(call)
      case .new: return try tools.new(call)
      case .delete: return try tools.delete(call)
      }
    } catch {
      throw ProposalError(message: AgentTools.message(error))
    }
  }
}

/// Why a proposal could not be approved (a conflict, a rule's refusal), in words for the
/// person approving it.
public struct ProposalError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public let message: String
  /// A failure saying `message`.
  public init(message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}

extension AgentTools {
  /// The tools as a person approving a proposal uses them: `client` is theirs (not `mcp`) and
  /// what the rules let them do is saved.
  mutating func approving() {
    pages.base.client = ""
    pages.base.agentWrites = "write"
    desk = nil
  }
}
