import Components
import D2SApplication
import D2SHTML
import D2SModel
import Foundation
import NIOCore
import RuleCore

/// `GET /ENTITY/KEY/-/delete`, a confirm page carrying the row's values, and `POST` to it: a
/// delete of a row changed since the page was shown is a 409.
extension WebApplication {
  func delete(
    _ request: WebRequest, _ write: WriteRequest, segments: [Substring], session: WebSession?
  ) async throws -> WebResponse {
    let key = segments[1]
    let path = request.path
    let keys = keys
    let outcome = try await withWriter(write, session: session, verb: "delete") { scope in
      let (database, names, entity) = (scope.database, scope.names, scope.entity)
      let links = scope.links
      let object = try Self.object(key, of: entity, names: names, in: database)
      let request = scope.request("inspect", object: object)
      let context = try scope.application.context(for: request)
      guard context.isObjectDeletable else {
        throw Self.refusal(
          "\(object.displayDescription) may not be deleted", key: "isObjectDeletable",
          page: WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/",
          context: context)
      }
      let inspect = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/"
      let referring = try Self.referringRows(
        to: object, in: database, context: context, reaches: names.reaches)
      let stamp = keys.token("row", boundTo: Self.rowText(object))
      if let post = write.post {
        // The page carried a stamp of the whole row as it was shown (never its values, which
        // can hold what the page does not show): a row changed since is a 409.
        guard let shown = post.last(where: { $0.0 == "_row" })?.1,
          keys.check(shown, "row", boundTo: Self.rowText(object))
        else {
          throw WebError(
            .conflict,
            "\(object.displayDescription) was changed since the page was shown: look again")
        }
        if referring.changesHiddenRows {
          throw WebError(
            .forbidden, "deleting \(object.displayDescription) would change rows you cannot see")
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
      // What the inspect page shows, never a password or a blob: label and text of each.
      let shownKeys = names.shownProperties(of: entity)
      let shown = entity.attributes.filter {
        $0.valueType != .data && !$0.isPassword && shownKeys.contains($0.name)
      }.map { attribute in
        let label = context.with(\.propertyKey, attribute.name).displayNameForProperty
        let value = object.databaseValue(forAttribute: attribute.name) ?? .null
        let text =
          value.isNull
          ? "NULL"
          : Self.text(
            of: attribute.name, object: object, context: context,
            formatters: scope.application.formatters)
        return (key: attribute.name, label: label.isEmpty ? attribute.name : label, text: text)
      }
      if write.json {
        return .page(
          ByteBuffer(
            string: Self.deleteJSON(
              entity: entity.name, title: context.title, shown: shown, referring: referring,
              stamp: stamp) + "\n"))
      }
      let output = ByteBufferOutput()
      HTMLRenderer.writeHead(
        title: "Delete", databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
        to: output)
      HTMLRenderer.writeBreadcrumb(
        WebLinks.trail(to: entity, object: object, context: context), to: output)
      output.write("<h1>Delete \(HTML.escape(context.title))?</h1>\n")
      output.write("<table class=\"properties\">\n")
      for field in shown {
        output.write(
          "<tr><th scope=\"row\">\(HTML.escape(field.label))</th><td>\(HTML.escape(field.text))</td></tr>\n"
        )
      }
      output.write("</table>\n")
      if !referring.lines.isEmpty {
        output.write("<h2>Rows that refer to it</h2>\n<ul class=\"referring\">\n")
        for line in referring.lines { output.write("<li>\(HTML.escape(line))</li>\n") }
        output.write("</ul>\n")
      }
      if referring.changesHiddenRows {
        output.write(
          "<p class=\"error\">Deleting it would change rows you cannot see: it cannot be deleted here.</p>\n"
        )
      } else if referring.refused {
        output.write(
          "<p class=\"error\">The database refuses to delete it while rows refer to it: change or delete them first.</p>\n<p class=\"buttons\"><a href=\"\(HTML.escape(inspect))\">Back</a></p>\n"
        )
      } else {
        output.write(
          "<form class=\"delete\" method=\"post\" action=\"\(HTML.escape(path))\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(links.csrf ?? ""))\"><input type=\"hidden\" name=\"_row\" value=\"\(HTML.escape(stamp))\"><p class=\"buttons\"><button type=\"submit\">Delete</button> <a href=\"\(HTML.escape(inspect))\">Cancel</a></p></form>\n"
        )
      }
      HTMLRenderer.writeTail(to: output)
      return .page(output.buffer)
    }
    return response(outcome, path: request.path, done: "deleted", json: write.json)
  }

  /// What deleting a row does to the rows that refer to it: a line per to-many of an entity
  /// the rules show (`12 Film (languageId): deleted with it`), and whether rows of an entity
  /// they hide would be deleted or changed, directly or through cascades (such rows are
  /// neither counted nor named).
  /// The delete page as JSON, for programs: the row's shown fields, the rows that refer to
  /// it, whether it can be deleted here (and why not), and the `_row` stamp a `POST` carries.
  static func deleteJSON(
    entity: String, title: String, shown: [(key: String, label: String, text: String)],
    referring: Referring, stamp: String
  ) -> String {
    let fields = shown.map { field in
      JSONText.object([
        ("key", JSONText.string(field.key)), ("label", JSONText.string(field.label)),
        ("text", JSONText.string(field.text)),
      ])
    }
    let reason: String? =
      referring.changesHiddenRows
      ? "deleting it would change rows you cannot see"
      : referring.refused ? "the database refuses to delete it while rows refer to it" : nil
    var members: [(String, String)] = [
      ("page", JSONText.string("delete")), ("entity", JSONText.string(entity)),
      ("title", JSONText.string(title)), ("fields", JSONText.array(fields)),
      ("referring", JSONText.array(referring.lines.map(JSONText.string))),
      ("deletable", reason == nil ? "true" : "false"),
    ]
    if let reason { members.append(("reason", JSONText.string(reason))) }
    if reason == nil { members.append(("_row", JSONText.string(stamp))) }
    return JSONText.object(members)
  }

  struct Referring {
    var lines: [String] = []
    var changesHiddenRows = false
    /// Whether rows refer to it by a foreign key that refuses the delete.
    var refused = false
  }

  /// The row's values as one text (a position token of every column but blobs), which the
  /// delete page's stamp signs.
  static func rowText(_ object: DatabaseObject) -> String {
    let values = object.entity.attributes.filter { $0.valueType != .data }.map {
      object.databaseValue(forAttribute: $0.name) ?? .null
    }
    return object.entity.name + "|" + (PositionToken.encode(values, arrays: true) ?? "")
  }

  static func referringRows(
    to object: DatabaseObject, in database: Database, context: RuleContext,
    reaches: (String) -> Bool
  ) throws -> Referring {
    var referring = Referring()
    // However deep: a cascade through rows the user sees into rows they may not.
    referring.changesHiddenRows = try database.deleteChangesRows(
      of: object, hidden: { !reaches($0) })
    for relationship in object.entity.relationships
    where relationship.isToMany && !relationship.isFlattened {
      let count = try database.countToMany(relationship.name, of: object)
      guard count > 0, let destination = database.model.entity(named: relationship.destinationName)
      else { continue }
      let columns = relationship.joins.compactMap {
        destination.attribute(named: $0.destination)?.columnName
      }
      // Rows of an entity the rules hide are neither counted nor named.
      guard reaches(destination.name) else { continue }
      let action = try database.adaptor.deleteAction(ofForeignKey: columns, in: destination)
      // Said only of rows the user may see: hidden ones are neither counted nor told of.
      if action == .refuse { referring.refused = true }
      var rows = context
      rows.task = "list"
      rows.entity = destination
      rows.removeValue(for: D2SKeys.Object.self)
      let noun = rows.displayNameForEntity.isEmpty ? destination.name : rows.displayNameForEntity
      var owner = context
      owner.propertyKey = relationship.name
      let label = owner.displayNameForProperty
      let fields =
        "their "
        + relationship.joins.map { join in
          rows.with(\.propertyKey, join.destination).displayNameForProperty
        }.joined(separator: ", ")
      let what: String
      switch action {
      case .cascade: what = "deleted with it"
      case .setNull: what = "\(fields) set to NULL"
      case .setDefault: what = "\(fields) set to the default"
      case .refuse: what = "the database refuses the delete while they exist"
      case .unenforced, nil: what = "no foreign key: they are left referring to nothing"
      }
      referring.lines.append(
        "\(count) \(noun) (\(label.isEmpty ? relationship.name : label)): \(what)")
    }
    return referring
  }
}
