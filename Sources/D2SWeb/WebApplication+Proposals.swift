import Components
import D2SApplication
import D2SHTML
import D2SMCP
import D2SModel
import EnvKeys
import Foundation
import NIOCore
import RuleCore

/// `GET /-/proposals/ID`: an agent's proposed change, for a logged-in person whom the rules let
/// make it: the stored, the seen and the proposed values side by side, with Approve and Reject
/// (CSRF-protected). Approving makes the change as that person, under the lock of what the agent
/// saw (a change meanwhile is a conflict, shown, and the proposal waits again). A bearer token
/// never approves: the page needs a session.
extension WebApplication {
  func proposal(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    guard let session else {
      if request.method == "POST" { throw WebError(.forbidden, "log in to decide proposals") }
      return Self.loginRedirect(request.path)
    }
    let id = String(request.path.dropFirst("/-/proposals/".count))
    guard let entry = try proposals.entry(id, now: Date()), entry.database == databaseName else {
      throw WebError(.notFound, "no such proposal (they wait 24 hours)")
    }
    let proposal = entry.proposal
    let action = request.method == "POST" ? request.form?.last { $0.0 == "action" }?.1 : nil
    let (keys, databaseName, store, logger) = (keys, databaseName, proposals, logger)
    let path = request.path
    let outcome = try await timed(client: request.clientAddress) {
      application, database -> EditOutcome in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      guard
        let person = try Self.user(
          session, in: database, keys: keys, links: &links, base: application.base)
      else { return .login }
      var context = application.base
      context.database = database
      context.user = person
      let who = links.userName ?? "someone"
      // Only a person the rules let make the change sees it or decides it.
      let may = try Self.mayDecide(proposal, context: context, database: database)
      // Nothing is decided on a relationship the database could not answer.
      try database.throwFailedRead()
      guard may else {
        throw WebError(.forbidden, "you may not make this change, nor decide it")
      }
      var message: String?
      switch action {
      case "approve":
        guard try store.decide(id, .approved(by: who)) else {
          throw WebError(.conflict, "this proposal was decided already")
        }
        do {
          var pages = application
          pages.base.database = database
          _ = try proposal.approve(pages: pages, user: person)
          logger.notice(
            "proposal \(id.prefix(8)) of \(proposal.proposer) (\(proposal.kind.rawValue) \(proposal.entity)) approved by \(who)"
          )
          return .saved(Self.proposalTarget(proposal) ?? "/")
        } catch let failure as ProposalError {
          try store.reopen(id)
          if failure.message.hasPrefix("not allowed") {
            throw WebError(.forbidden, failure.message)
          }
          message = failure.message
        }
      case "reject":
        guard try store.decide(id, .rejected(by: who)) else {
          throw WebError(.conflict, "this proposal was decided already")
        }
        logger.notice(
          "proposal \(id.prefix(8)) of \(proposal.proposer) (\(proposal.kind.rawValue) \(proposal.entity)) rejected by \(who)"
        )
        return .saved(path)
      case nil: break
      default: throw WebError(.badRequest, "approve or reject")
      }
      let page = try Self.proposalPage(
        proposal, state: (try store.entry(id, now: Date()))?.state ?? entry.state, message: message,
        path: path,
        links: links, context: context, database: database)
      return message == nil ? .page(page) : .conflict(page)
    }
    return response(outcome, path: path, done: action == "reject" ? "rejected" : "approved")
  }

  /// Whether the person of `context` may make the proposed change: reach its entity, and edit
  /// the row (`isObjectEditable`), add rows (`isEntityReadOnly` false) or delete the row
  /// (`isObjectDeletable`), as their rules say.
  ///
  /// - Throws: what the database throws reading the row (a lock, the statement timeout): a
  ///   page that says so, never "you may not".
  static func mayDecide(_ proposal: Proposal, context: RuleContext, database: Database) throws
    -> Bool
  {
    guard context.isEntityReachable(proposal.entity),
      let entity = database.model.entity(named: proposal.entity)
    else { return false }
    var asked = context
    asked.entity = entity
    switch proposal.kind {
    case .new:
      asked.task = "edit"
      return !entity.isReadOnly && !asked.isEntityReadOnly
    case .edit, .delete:
      let names = ModelNames(context: context, policy: .shown)
      guard let key = proposal.key else { return false }
      let values: [DatabaseValue]
      do {
        values = try names.key(Substring(WebLinks.keySegment(key)), of: entity)
      } catch is WebError {
        return false
      }
      guard let object = try database.fetchObject(entity.name, primaryKey: values) else {
        return false
      }
      asked.object = object
      if proposal.kind == .delete {
        asked.task = "inspect"
        return asked.isObjectDeletable
      }
      asked.task = "edit"
      do {
        _ = try EditingSession.edit(object, in: asked)
        return true
      } catch is PermissionError {
        return false
      } catch let failure as DatabaseError where failure.code == .readOnly {
        return false
      }
    }
  }

  /// Where an approved proposal leads: its row's page, or the entity's list.
  static func proposalTarget(_ proposal: Proposal) -> String? {
    guard let key = proposal.key, proposal.kind == .edit else {
      return WebLinks.entityPath(proposal.entity)
    }
    return WebLinks.entityPath(proposal.entity) + "/"
      + WebLinks.keySegment(key)
  }

  /// The proposal's page.
  private static func proposalPage(
    _ proposal: Proposal, state: ProposalState, message: String?, path: String,
    links: WebLinks, context: RuleContext, database: Database
  ) throws -> ByteBuffer {
    guard let entity = database.model.entity(named: proposal.entity) else {
      throw WebError(.notFound, "no entity \(proposal.entity)")
    }
    var object: DatabaseObject?
    if let key = proposal.key {
      let names = ModelNames(context: context, policy: .shown)
      object = try database.fetchObject(
        entity.name,
        primaryKey: names.key(
          Substring(WebLinks.keySegment(key)), of: entity))
    }
    var rows = context
    rows.task = "inspect"
    rows.entity = entity
    if let object { rows.object = object }
    let title =
      "\(proposal.kind.rawValue.capitalized) \(object == nil ? rows.displayNameForEntity : rows.title)?"
    let output = ByteBufferOutput()
    HTMLRenderer.writeHead(
      title: "Proposal", databaseName: links.databaseName, user: links.userName,
      csrf: links.csrf, to: output)
    HTMLRenderer.writeBreadcrumb(
      object.map { WebLinks.trail(to: entity, object: $0, context: context) }
        ?? WebLinks.trail(to: entity, context: context), to: output)
    output.write("<h1>\(HTML.escape(title))</h1>\n")
    output.write("<p>Proposed by \(HTML.escape(proposal.proposer)), an agent.</p>\n")
    if let message {
      output.write("<p class=\"error\" role=\"alert\">Not saved: \(HTML.escape(message))</p>\n")
    }
    var keys: [String] = []
    for (key, _) in proposal.values + proposal.seen where !keys.contains(key) { keys.append(key) }
    output.write(
      "<table class=\"list\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Stored now</th><th scope=\"col\">The agent saw</th><th scope=\"col\">Proposed</th></tr></thead><tbody>\n"
    )
    for key in keys {
      let label = rows.with(\.propertyKey, key).displayNameForProperty
      let stored = object.flatMap { object -> String? in
        guard let attribute = entity.attribute(named: key), !attribute.isPassword else {
          return nil
        }
        return JSONText.value(object.databaseValue(forAttribute: key) ?? .null)
      }
      let seen = proposal.seen.first { $0.0 == key }?.1
      let proposed = proposal.values.first { $0.0 == key }?.1
      output.write(
        "<tr><th scope=\"row\">\(HTML.escape(label.isEmpty ? key : label))</th><td>\(HTML.escape(stored ?? ""))</td><td>\(HTML.escape(seen ?? ""))</td><td>\(HTML.escape(proposed ?? (proposal.kind == .delete ? "(deleted)" : "")))</td></tr>\n"
      )
    }
    output.write("</tbody></table>\n")
    switch state {
    case .approved(let by): output.write("<p class=\"saved\">Approved by \(HTML.escape(by)).</p>\n")
    case .rejected(let by): output.write("<p class=\"saved\">Rejected by \(HTML.escape(by)).</p>\n")
    case .pending:
      let csrf = HTML.escape(links.csrf ?? "")
      output.write(
        "<form class=\"proposal\" method=\"post\" action=\"\(HTML.escape(path))\"><input type=\"hidden\" name=\"_csrf\" value=\"\(csrf)\"><p class=\"buttons\"><button type=\"submit\" name=\"action\" value=\"approve\">Approve</button> <button type=\"submit\" name=\"action\" value=\"reject\">Reject</button></p></form>\n"
      )
    }
    HTMLRenderer.writeTail(to: output)
    return output.buffer
  }
}
