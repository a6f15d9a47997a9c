import Components
import D2SModel
import Foundation

/// `GET /ENTITY/KEY/-/delete`, a confirm page carrying the row's values, and `POST` to it: a
/// delete of a row changed since the page was shown is a 409.
extension WebApplication {
  func delete(_ request: WebRequest, segments: [Substring], session: WebSession?) async throws
    -> WebResponse
  {
    guard
      let write = try writeRequest(request, entity: segments[0], session: session, verb: "delete")
    else { return Self.loginRedirect(request.path) }
    let key = segments[1]
    let path = request.path
    let outcome = try await withWriter(write, session: session, verb: "delete") { scope in
      let (database, names, entity) = (scope.database, scope.names, scope.entity)
      let links = scope.links
      let object = try Self.object(key, of: entity, names: names, in: database)
      let request = scope.request("inspect", object: object)
      let context = try scope.application.context(for: request)
      guard context.isObjectDeletable else {
        throw WebError(.forbidden, "\(object.displayDescription) may not be deleted")
      }
      let inspect = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/"
      if let post = write.post {
        var shown: [String: String] = [:]
        for (field, value) in post where field.hasPrefix("_shown.") {
          shown[String(field.dropFirst("_shown.".count))] = value
        }
        let stale = entity.attributes.contains { attribute in
          guard attribute.valueType != .data else { return false }
          guard let token = shown[attribute.name],
            let value = try? PositionToken.decode(token).first
          else { return true }
          return object.databaseValue(forAttribute: attribute.name) ?? .null != value
        }
        if stale {
          throw WebError(
            .conflict,
            "\(object.displayDescription) was changed since the page was shown: look again")
        }
        do {
          try EditingSession.delete(object, in: context)
        } catch is PermissionError {
          throw WebError(.forbidden, "\(object.displayDescription) may not be deleted")
        } catch let failure as DatabaseError where failure.code == .foreignKey {
          throw WebError(.conflict, "other rows refer to \(object.displayDescription): not deleted")
        } catch let failure as DatabaseError where failure.code == .conflict {
          throw WebError(.conflict, "\(object.displayDescription) was changed or deleted meanwhile")
        }
        return .saved(WebLinks.entityPath(entity.name))
      }
      let output = StringOutput()
      HTMLRenderer.writeHead(
        title: "Delete", databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
        to: output)
      output.write("<h1>Delete \(HTML.escape(context.title))?</h1>\n")
      output.write("<table class=\"properties\">\n")
      var hidden = ""
      for attribute in entity.attributes where attribute.valueType != .data {
        let value = object.databaseValue(forAttribute: attribute.name) ?? .null
        output.write(
          "<tr><th scope=\"row\">\(HTML.escape(attribute.name))</th><td>\(HTML.escape(value.isNull ? "NULL" : Self.text(of: attribute.name, object: object, context: context, formatters: scope.application.formatters)))</td></tr>\n"
        )
        hidden +=
          "<input type=\"hidden\" name=\"_shown.\(HTML.escape(attribute.name))\" value=\"\(HTML.escape(PositionToken.encode([value], arrays: true) ?? "n"))\">"
      }
      output.write("</table>\n")
      let referring = try Self.referringRows(to: object, in: database, visible: names.visible)
      if !referring.isEmpty {
        output.write("<h2>Rows that refer to it</h2>\n<ul class=\"referring\">\n")
        for line in referring { output.write("<li>\(HTML.escape(line))</li>\n") }
        output.write("</ul>\n")
      }
      output.write(
        "<form class=\"delete\" method=\"post\" action=\"\(HTML.escape(path))\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(links.csrf ?? ""))\">\(hidden)<p class=\"buttons\"><button type=\"submit\">Delete</button> <a href=\"\(HTML.escape(inspect))\">Cancel</a></p></form>\n"
      )
      HTMLRenderer.writeTail(to: output)
      return .page(output.text)
    }
    return response(outcome, path: request.path, done: "deleted")
  }

  /// What deleting `object` does to the rows that refer to it, one line per to-many with
  /// rows: `12 Film (languageId): deleted with it`.
  /// Entities the rules hide are not named.
  static func referringRows(
    to object: DatabaseObject, in database: Database, visible: Set<String>
  ) throws -> [String] {
    var lines: [String] = []
    for relationship in object.entity.relationships
    where relationship.isToMany && !relationship.isFlattened {
      let count = try database.countToMany(relationship.name, of: object)
      guard count > 0, let destination = database.model.entity(named: relationship.destinationName)
      else { continue }
      let columns = relationship.joins.compactMap {
        destination.attribute(named: $0.destination)?.columnName
      }
      let action = try database.adaptor.deleteAction(ofForeignKey: columns, in: destination)
      let fields =
        visible.contains(destination.name)
        ? "their " + relationship.joins.map(\.destination).joined(separator: ", ")
        : "their reference"
      let what: String
      switch action {
      case .cascade: what = "deleted with it"
      case .setNull: what = "\(fields) set to NULL"
      case .setDefault: what = "\(fields) set to the default"
      case .refuse: what = "the database refuses the delete while they exist"
      case .unenforced, nil: what = "no foreign key: they are left referring to nothing"
      }
      if visible.contains(destination.name) {
        lines.append("\(count) \(destination.name) (\(relationship.name)): \(what)")
      } else {
        lines.append("\(count) other rows: \(what)")
      }
    }
    return lines
  }
}
