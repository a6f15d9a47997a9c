import Components
import D2SApplication
import D2SHTML
import D2SModel
import Foundation
import Qualifiers

/// `GET /ENTITY/KEY/-/choose/REL` (and `/ENTITY/-/choose/REL` for a new object): the
/// candidates of a to-one with a search field, each a link back to the form with that one
/// filled in (unsaved). For to-ones with more candidates than a select lists.
extension WebApplication {
  /// Candidates shown at once; a search narrows them.
  static let chooseLimit = 50

  func choose(
    _ request: WebRequest, entity segment: Substring, key: Substring?,
    relationship relationshipSegment: Substring, session: WebSession?
  ) async throws -> WebResponse {
    guard request.method != "POST" else {
      throw WebError(.methodNotAllowed, "POST is not allowed here", allow: "GET, HEAD")
    }
    guard let write = try writeRequest(request, entity: segment, session: session, verb: "edit")
    else { return Self.loginRedirect(request.path) }
    guard let relationshipName = HTML.percentDecoded(relationshipSegment) else {
      throw WebError(.notFound, "no page here")
    }
    let search = write.query.last { $0.0 == "q" }?.1 ?? ""
    let path = request.path
    let outcome = try await withWriter(write, session: session, verb: "edit") { scope in
      let (database, application, names, entity) = (
        scope.database, scope.application, scope.names, scope.entity
      )
      let links = scope.links
      var request = scope.request("edit")
      let editing: EditingSession
      let back: String
      do {
        if let key {
          let object = try Self.object(key, of: entity, names: names, in: database)
          request.object = object
          editing = try EditingSession.edit(object, in: try application.context(for: request))
          back = (WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "") + "/-/edit"
        } else {
          editing = try EditingSession.new(entity.name, in: try application.context(for: request))
          back = WebLinks.entityPath(entity.name) + "/-/new"
        }
      } catch is PermissionError {
        throw WebError(.forbidden, "you may not edit \(entity.name)")
      }
      let editable = try Self.editableKeys(
        editing, page: request, application: application, reaches: names.reaches)
      guard editable.contains(relationshipName),
        let relationship = entity.relationship(named: relationshipName)
      else { throw WebError(.notFound, "\(entity.name) has no to-one \(relationshipName) to set") }
      let destination = try names.entity(relationship.destinationName)
      // Searched and sorted by its title's first attribute, when the rules let a URL use it.
      let titleKey = destination.titleAttributeChoices.first?.first.flatMap {
        try? names.property($0, of: destination)
      }
      var specification = FetchSpecification(
        entityName: destination.name, limit: Self.chooseLimit + 1)
      specification.sortOrderings =
        (titleKey.map { [$0] } ?? [])
        .map { SortOrdering($0) } + destination.primaryKeyAttributeNames.map { SortOrdering($0) }
      if let titleKey, !search.isEmpty {
        specification.qualifier = .comparison(
          KVCPath(titleKey), .caseInsensitiveLike,
          .string("*" + SearchText.literal(search) + "*"))
      }
      let candidates = try database.fetch(specification)
      let output = ByteBufferOutput()
      let title = "Choose \(relationshipName)"
      HTMLRenderer.writeHead(
        title: title, databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
        to: output)
      output.write("<h1>\(HTML.escape(title))</h1>\n")
      if titleKey != nil {
        output.write(
          "<form class=\"filter\" method=\"get\" action=\"\(HTML.escape(path))\"><label for=\"f-q\">Search\(titleKey.map { " " + HTML.escape($0) } ?? "")<input id=\"f-q\" name=\"q\" value=\"\(HTML.formValue(search))\"></label><button type=\"submit\">Search</button></form>\n"
        )
      }
      output.write("<ul class=\"candidates\">\n")
      for candidate in candidates.prefix(Self.chooseLimit) {
        let target =
          back + "?"
          + HTML.query([(relationshipName, FieldWidgets.keyText(candidate.primaryKeyValues))])
        output.write(
          "<li><a href=\"\(HTML.escape(target))\">\(HTML.escape(FieldWidgets.title(of: candidate, context: editing.context)))</a></li>\n"
        )
      }
      output.write("</ul>\n")
      if candidates.isEmpty {
        output.write("<p class=\"hint\">Nothing matches.</p>\n")
      } else if candidates.count > Self.chooseLimit {
        output.write(
          "<p class=\"hint\">The first \(Self.chooseLimit) are shown: search to find others.</p>\n")
      }
      output.write("<p class=\"buttons\"><a href=\"\(HTML.escape(back))\">Cancel</a></p>\n")
      HTMLRenderer.writeTail(to: output)
      return .page(output.buffer)
    }
    return response(outcome, path: path, done: "")
  }
}
