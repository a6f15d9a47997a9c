import Components
import D2SModel
import Foundation

/// `GET /ENTITY/KEY/-/delete`, a confirm page carrying the row's values, and `POST` to it: a
/// delete of a row changed since the page was shown is a 409.
extension WebApplication {
  func delete(_ request: WebRequest, segments: [Substring], session: WebSession?) async throws
    -> WebResponse
  {
    guard let name = HTML.percentDecoded(segments[0]) else {
      throw WebError(.notFound, "no page here")
    }
    if request.method == "POST" { try requireToken(request, session: session) }
    guard session != nil else {
      guard request.method != "POST" else { throw WebError(.forbidden, "log in to delete") }
      return WebResponse(
        status: 303, contentType: "text/plain; charset=utf-8",
        headers: [("Location", "/-/login?next=" + HTML.queryComponent(request.path))],
        body: "log in to delete\n")
    }
    if configuration.readOnly { throw WebError(.forbidden, "this server is read-only") }
    let application = pageApplication
    let keys = keys
    let databaseName = databaseName
    let post = request.method == "POST" ? request.form : nil
    if request.method == "POST", post == nil {
      throw WebError(.badRequest, "the form is not valid")
    }
    let key = segments[1]
    let path = request.path
    let outcome: EditOutcome = try await pool.withDatabase { database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      guard
        let user = try Self.user(
          session, in: database, keys: keys, links: &links, base: application.base)
      else {
        if post == nil { return .login }
        throw WebError(.forbidden, "log in to delete")
      }
      var base = application.base
      base.database = database
      base.platform = "html"
      let names = WebNames(context: base)
      let entity = try names.entity(name)
      let values = try names.key(key, of: entity)
      guard let object = try database.fetchObject(entity.name, primaryKey: values) else {
        throw WebError(.notFound, "no \(entity.name) with key \(key)")
      }
      var request = PageRequest(
        task: "inspect", entityName: entity.name, object: object, user: user, platform: "html",
        width: nil)
      request.database = database
      let context = try application.context(for: request)
      guard context.isObjectDeletable else {
        throw WebError(.forbidden, "\(object.displayDescription) may not be deleted")
      }
      let inspect = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/"
      if let post {
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
        title: "Delete", databaseName: databaseName, user: links.userName, csrf: links.csrf,
        to: output)
      output.write("<h1>Delete \(HTML.escape(object.displayDescription))?</h1>\n")
      output.write("<table class=\"properties\">\n")
      var hidden = ""
      for attribute in entity.attributes where attribute.valueType != .data {
        let value = object.databaseValue(forAttribute: attribute.name) ?? .null
        output.write(
          "<tr><th scope=\"row\">\(HTML.escape(attribute.name))</th><td>\(HTML.escape(value.isNull ? "NULL" : value.description))</td></tr>\n"
        )
        hidden +=
          "<input type=\"hidden\" name=\"_shown.\(HTML.escape(attribute.name))\" value=\"\(HTML.escape(PositionToken.encode([value]) ?? "n"))\">"
      }
      output.write("</table>\n")
      var referring: [String] = []
      for relationship in entity.relationships
      where relationship.isToMany && !relationship.isFlattened {
        let count = try database.countToMany(relationship.name, of: object)
        if count > 0 { referring.append("\(count) \(relationship.name)") }
      }
      if !referring.isEmpty {
        output.write(
          "<p class=\"hint\">Rows that refer to it: \(HTML.escape(referring.joined(separator: ", "))). The database deletes them with it, or refuses, as its foreign keys say.</p>\n"
        )
      }
      output.write(
        "<form class=\"delete\" method=\"post\" action=\"\(HTML.escape(path))\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(links.csrf ?? ""))\">\(hidden)<p class=\"buttons\"><button type=\"submit\">Delete</button> <a href=\"\(HTML.escape(inspect))\">Cancel</a></p></form>\n"
      )
      HTMLRenderer.writeTail(to: output)
      return .page(output.text)
    }
    switch outcome {
    case .login:
      return WebResponse(
        status: 303, contentType: "text/plain; charset=utf-8",
        headers: [("Location", "/-/login?next=" + HTML.queryComponent(request.path))],
        body: "log in\n")
    case .saved(let location):
      return WebResponse(
        status: 303, contentType: "text/plain; charset=utf-8",
        headers: [("Location", location), ("Cache-Control", "no-store")], body: "deleted\n")
    case .page(let html), .invalid(let html), .conflict(let html):
      return WebResponse(
        contentType: "text/html; charset=utf-8", headers: [("Cache-Control", "no-store")],
        body: html)
    }
  }
}
