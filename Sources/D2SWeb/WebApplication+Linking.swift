import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import NIOCore
import Qualifiers
import RuleCore

/// `GET /ENTITY/KEY/-/links/REL`: Direct to Web's edit-relationship page for a many-to-many
/// through a link table: the objects linked, each with a Remove button, and candidates (the
/// choose page's search) each with an Add button. `POST` to it adds (`add=KEY`) or removes
/// (`remove=KEY`) one link in one transaction; the form carries the links as the page showed
/// them, and links changed meanwhile answer 409 with the page as it is now.
extension WebApplication {
  /// What a POST of the links page changes: the destination's key as the form carries it.
  private enum LinkPost {
    case add(String)
    case remove(String)
  }

  func links(
    _ request: WebRequest, _ write: WriteRequest, segments: [Substring], session: WebSession?
  ) async throws -> WebResponse {
    guard segments.count == 5, let relationshipName = HTML.percentDecoded(segments[4]) else {
      throw WebError(.notFound, "no page here")
    }
    let key = segments[1]
    let path = request.path
    let search = write.query.last { $0.0 == "q" }?.1 ?? ""
    let post: LinkPost? = try write.post.map { fields in
      if let add = fields.last(where: { $0.0 == "add" })?.1 { return .add(add) }
      if let remove = fields.last(where: { $0.0 == "remove" })?.1 { return .remove(remove) }
      throw WebError(.badRequest, "the form adds or removes nothing")
    }
    let shownToken = write.post?.last { $0.0 == "_links" }?.1
    let found =
      write.post == nil ? SavedNotice.notice(request, secure: configuration.httpsOnly) : nil
    let outcome = try await withWriter(write, session: session, verb: "edit") { scope in
      let (database, application, names, entity) = (
        scope.database, scope.application, scope.names, scope.entity
      )
      let object = try Self.object(key, of: entity, names: names, in: database)
      guard let name = try? names.property(relationshipName, of: entity),
        let relationship = entity.relationship(named: name), relationship.isToMany,
        names.reaches(relationship.destinationName)
      else { throw WebError(.notFound, "\(entity.name) has no many-to-many \(relationshipName)") }
      guard relationship.isFlattened else {
        throw WebError(
          .notFound,
          "\(entity.name)'s \(name) are rows of their own, not links between two tables: edit them as rows"
        )
      }
      let context = try application.context(for: scope.request("edit", object: object))
      guard EditingSession.mayChangeLinks(name, of: object, in: context) else {
        throw WebError(.forbidden, "you may not change the \(name) of \(object.displayDescription)")
      }
      let destination = try names.entity(relationship.destinationName)
      var message: String?
      var notice = found?.0
      if let post {
        guard let shown = shownToken, shown.count == 32 else {
          throw WebError(.badRequest, "the form is not valid")
        }
        let change: Database.LinkChange
        switch post {
        case .add(let text):
          change = .add(try Self.linkKey(text, of: destination, names: names))
        case .remove(let text):
          change = .remove(try Self.linkKey(text, of: destination, names: names))
        }
        do {
          // The form holds a digest of the links as shown: when they are still those, the
          // change expects them, and the database checks them again under the owner's lock.
          let current = try database.linkedKeys(name, of: object)
          guard Self.linksDigest(current) == shown else {
            throw DatabaseError(.conflict, "the links were changed meanwhile")
          }
          try EditingSession.changeLinks(
            name, of: object, change, expecting: current, in: context)
          return .saved(path + (search.isEmpty ? "" : "?" + HTML.query([("q", search)])))
        } catch is PermissionError {
          throw WebError(
            .forbidden, "you may not change the \(name) of \(object.displayDescription)")
        } catch let failure as DatabaseError where failure.code == .conflict {
          notice = nil
          message =
            "Someone changed the \(name) of \(object.displayDescription) after you opened this page: nothing has been changed. This is how they are now."
        } catch let failure as DatabaseError where failure.code == .notFound {
          throw WebError(.notFound, failure.message)
        }
      }
      let page = try Self.linksPage(
        name, of: object, destination: destination, search: search, path: path,
        message: message, notice: notice, scope: scope, context: context)
      return message == nil ? .page(page) : .conflict(page)
    }
    var answer = response(outcome, path: path, done: "changed")
    if let clear = found?.1 { answer.headers.append(clear) }
    return answer
  }

  /// The links page's HTML.
  private static func linksPage(
    _ name: String, of object: DatabaseObject, destination: Entity, search: String, path: String,
    message: String?, notice: String?, scope: WriteScope, context: RuleContext
  ) throws -> ByteBuffer {
    let (database, names, links) = (scope.database, scope.names, scope.links)
    let linkedKeys = try database.linkedKeys(name, of: object)
    // Candidates searched and sorted by their title's first attribute, as the choose page.
    let titleKey = destination.titleAttributeChoices.first?.first.flatMap {
      try? names.property($0, of: destination)
    }
    let order =
      (titleKey.map { [SortOrdering($0)] } ?? [])
      + destination.primaryKeyAttributeNames.map { SortOrdering($0) }
    // The linked objects, the first ``linkedLimit`` in one fetch, in that order.
    let isLinked = database.qualifier(
      for: try Self.relationship(name, of: object.entity), of: object)
    var linkedFetch = FetchSpecification(
      entityName: destination.name, qualifier: isLinked, limit: linkedLimit)
    linkedFetch.sortOrderings = order
    let linked = try database.fetch(linkedFetch).map {
      (FieldWidgets.title(of: $0, context: context), $0)
    }
    let label = context.with(\.propertyKey, name).displayNameForProperty
    let ownerTitle = FieldWidgets.title(of: object, context: context)
    let title = "\(label) of \(ownerTitle)"
    let inspect = WebLinks.objectPath(object.entity.name, key: object.primaryKeyValues) ?? "/"
    let hidden =
      "<input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(links.csrf ?? ""))\"><input type=\"hidden\" name=\"_links\" value=\"\(linksDigest(linkedKeys))\">"
    let action = path + (search.isEmpty ? "" : "?" + HTML.query([("q", search)]))
    func button(_ verb: String, _ field: String, _ target: DatabaseObject, _ text: String) -> String
    {
      "<form class=\"inline link\" method=\"post\" action=\"\(HTML.escape(action))\">\(hidden)<input type=\"hidden\" name=\"\(field)\" value=\"\(HTML.escape(FieldWidgets.keyText(target.primaryKeyValues)))\"><button type=\"submit\">\(verb)<span class=\"visually-hidden\"> \(HTML.escape(text))</span></button></form>"
    }
    func titled(_ target: DatabaseObject) -> String {
      FieldWidgets.title(of: target, context: context)
    }

    let output = ByteBufferOutput()
    HTMLRenderer.writeHead(
      title: title, databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
      to: output)
    HTMLRenderer.writeBreadcrumb(
      WebLinks.trail(to: object.entity, object: object, context: context), to: output)
    output.write("<h1>\(HTML.escape(title))</h1>\n")
    if let message {
      output.write("<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>\n")
    }
    if let notice {
      output.write("<p class=\"saved\" role=\"status\">\(HTML.escape(notice))</p>\n")
    }
    output.write("<h2>Linked (\(linkedKeys.count))</h2>\n")
    if linked.isEmpty { output.write("<p class=\"hint\">None.</p>\n") }
    if linkedKeys.count > linked.count {
      output.write(
        "<p class=\"hint\">The first \(linked.count) are shown; `unlink` in d2s-repl removes any.</p>\n"
      )
    }
    output.write("<ul class=\"linked\">\n")
    for (text, target) in linked {
      let link = WebLinks.objectPath(destination.name, key: target.primaryKeyValues).map {
        "<a href=\"\(HTML.escape($0))\">\(HTML.escape(text))</a>"
      }
      // The other end must be editable too: one the rules lock has no button.
      let remove =
        EditingSession.mayLink(target, in: context)
        ? " " + button("Remove", "remove", target, text) : ""
      output.write("<li>\(link ?? HTML.escape(text))\(remove)</li>\n")
    }
    output.write("</ul>\n<h2>Add</h2>\n")
    if let titleKey {
      output.write(
        "<form class=\"filter\" method=\"get\" action=\"\(HTML.escape(path))\"><label for=\"f-q\">Search \(HTML.escape(context.with(\.propertyKey, titleKey).displayNameForProperty))<input id=\"f-q\" name=\"q\" value=\"\(HTML.formValue(search))\"></label><button type=\"submit\">Search</button></form>\n"
      )
    }
    // Linked ones are left out by the statement, however many come first in the order.
    var specification = FetchSpecification(
      entityName: destination.name, qualifier: .not(isLinked), limit: chooseLimit + 1)
    specification.sortOrderings = order
    if let titleKey, !search.isEmpty {
      specification.qualifier = .and([
        .not(isLinked),
        .comparison(
          KVCPath(titleKey), .caseInsensitiveLike,
          .string("*" + SearchText.literal(search) + "*")),
      ])
    }
    let candidates = try database.fetch(specification)
    output.write("<ul class=\"candidates\">\n")
    for candidate in candidates.prefix(chooseLimit) {
      let text = titled(candidate)
      let add =
        EditingSession.mayLink(candidate, in: context)
        ? " " + button("Add", "add", candidate, text) : ""
      output.write("<li>\(HTML.escape(text))\(add)</li>\n")
    }
    output.write("</ul>\n")
    if candidates.isEmpty {
      output.write("<p class=\"hint\">Nothing else matches.</p>\n")
    } else if candidates.count > chooseLimit {
      output.write(
        "<p class=\"hint\">The first \(chooseLimit) are shown: search to find others.</p>\n")
    }
    output.write("<p class=\"buttons\"><a href=\"\(HTML.escape(inspect))\">Done</a></p>\n")
    HTMLRenderer.writeTail(to: output)
    return output.buffer
  }

  /// The relationship `name` of `entity`, or 404.
  private static func relationship(_ name: String, of entity: Entity) throws -> Relationship {
    guard let relationship = entity.relationship(named: name) else {
      throw WebError(.notFound, "\(entity.name) has no relationship \(name)")
    }
    return relationship
  }

  /// A destination's key as a links form carries it (`5`, `1,23`), or 400.
  private static func linkKey(_ text: String, of destination: Entity, names: ModelNames) throws
    -> [DatabaseValue]
  {
    do {
      return try names.key(Substring(text), of: destination)
    } catch {
      throw WebError(.badRequest, "no \(destination.name) has the key \(text)")
    }
  }

  /// The most linked objects a links page lists.
  static let linkedLimit = 200

  /// The links as the page showed them, for its forms: 32 hexadecimal digits of the SHA-256
  /// of every key in key order (a form's size does not grow with the links).
  static func linksDigest(_ keys: [[DatabaseValue]]) -> String {
    let arity = keys.first?.count ?? 1
    let text = PositionToken.encode([.int(arity)] + keys.flatMap { $0 }, arrays: true) ?? ""
    return SHA256.hash(text).prefix(16).map { String(format: "%02x", $0) }
      .joined()
  }
}
