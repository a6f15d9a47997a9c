import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// `GET /-/why?page=PATH[&property=KEY][&key=KEY]`: why a page, or one of its fields, is as it
/// is, for a logged-in user a rule lets see explanations (`mayExplain`; never an anonymous
/// visitor). For each key that shaped it (a field's component, label, formatter, the page's
/// visible properties and their order, editability; a page's page, look, title, properties
/// and permissions): the winning rule with its `FILE:LINE`, every candidate that lost with its
/// first false condition and the actual values, and the nested look-ups as a tree. `key=`
/// explains one key; as JSON (`Accept: application/json` or `format=json`), that key's
/// explanation is the REPL's `explain KEY for PROPERTY` in `--format json`, byte for byte.
/// Pages offer it beside every label with `?explain=1`.
extension WebApplication {
  /// The keys a field's explanation covers.
  static let fieldKeys = [
    "component", "displayNameForProperty", "formatter", "displayPropertyKeys", "isObjectEditable",
  ]
  /// The keys a page's explanation covers.
  static let pageKeys = [
    "page", "look", "displayNameForEntity", "displayPropertyKeys", "isEntityReadOnly",
    "isObjectEditable", "isObjectDeletable",
  ]

  /// A 403 for a permission `key` refused on the page at `page`, linking to its explanation
  /// when `context`'s user may see explanations.
  static func refusal(
    _ message: String, key: String, page: String, context: RuleContext
  ) -> WebError {
    var error = WebError(.forbidden, message)
    if context.user != nil, context.mayExplain {
      error.why = "/-/why?" + HTML.query([("page", page), ("key", key)])
    }
    return error
  }

  func why(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    let refusal = WebError(
      .forbidden, "explanations are for users a rule lets see them (mayExplain = true)")
    guard let session else { throw refusal }
    let format = try request.format
    guard format == .html || format == .json else {
      throw WebError(.badRequest, "an explanation is HTML or JSON")
    }
    let parameters = request.parameters
    let page = parameters.last { $0.0 == "page" }?.1 ?? "/"
    guard page.hasPrefix("/"), !page.hasPrefix("//"), !page.hasPrefix("/-/") else {
      throw WebError(.badRequest, "page: the path of a page of this server (/Film/1)")
    }
    let property = parameters.last { $0.0 == "property" }?.1
    let key = parameters.last { $0.0 == "key" }?.1
    let (keys, databaseName, assistant) = (self.keys, databaseName, assistant)
    let timed = try await timed(client: request.clientAddress) { application, database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      guard
        let user = try Self.user(
          session, in: database, keys: keys, links: &links, base: application.base)
      else { throw refusal }
      var context: RuleContext
      do {
        context = try Self.explainedContext(
          page, user: user, application: application, database: database)
      } catch {
        // Whether the page's row or entity exists is told only to a user who may see
        // explanations at all.
        var general = application.base
        general.database = database
        general.user = user
        general.platform = "html"
        guard general.mayExplain else { throw refusal }
        throw error
      }
      guard context.mayExplain else { throw refusal }
      var label: String?
      if let property {
        guard let entity = context.entity,
          let name = try? ModelNames(context: context, policy: .shown).property(
            property, of: entity)
        else { throw WebError(.notFound, "the page shows no property \(property)") }
        context.propertyKey = name
        label = context.displayNameForProperty
      }
      let asked =
        try key.map { [try context.exposedKey(named: $0).name] }
        ?? (property == nil ? Self.pageKeys : Self.fieldKeys)
      let explanations = try asked.map { try KeyExplanation(keyNamed: $0, in: context) }
      if format == .json {
        if key != nil, let only = explanations.first { return only.json }
        return JSONText.object([
          ("page", JSONText.string(page)),
          ("property", property == nil ? "null" : JSONText.string(context.propertyKey)),
          ("explanations", JSONText.array(explanations.map(\.json))),
        ])
      }
      let subject = label.map { "\($0) on \(context.title)" } ?? "the page \(context.title)"
      return Self.explanationPage(
        explanations, subject: subject, page: page, context: context, links: links,
        editsRules: try assistant != nil
          && Self.mayEditRules(user, application: application, database: database))
    }
    return WebResponse(
      contentType: format.contentType, headers: [("Cache-Control", "no-store")],
      body: timed.value + (format == .json ? "\n" : ""))
  }

  /// The context of the page at `path` for `user`, as the page itself is made: the entity
  /// list, a list, an object, an object's edit form, a relationship followed.
  static func explainedContext(
    _ path: String, user: DatabaseObject, application: PageApplication, database: Database
  ) throws -> RuleContext {
    try application.context(
      for: explainedRequest(path, user: user, application: application, database: database))
  }

  /// The request of the page at `path` for `user` (``explainedContext(_:user:application:database:)``).
  static func explainedRequest(
    _ path: String, user: DatabaseObject, application: PageApplication, database: Database
  ) throws -> PageRequest {
    var base = application.base
    base.database = database
    base.platform = "html"
    base.user = user
    let names = ModelNames(context: base, policy: .shown)
    var request = PageRequest(user: user, platform: "html", width: nil)
    request.database = database
    let segments = path == "/" ? [] : segments(of: path)
    func object(_ entity: Entity, _ key: Substring) throws -> DatabaseObject {
      guard
        let object = try database.fetchObject(entity.name, primaryKey: names.key(key, of: entity))
      else { throw WebError(.notFound, "no \(entity.name) with the key \(key)") }
      return object
    }
    switch segments.count {
    case 0:
      request.task = "query"
    case 1:
      request.task = "list"
      request.entityName = try names.entity(String(segments[0])).name
    case 2, 4:
      let entity = try names.entity(String(segments[0]))
      request.entityName = entity.name
      request.object = try object(entity, segments[1])
      request.task = "inspect"
      if segments.count == 4 {
        guard segments[2] == "-", segments[3] == "edit" else {
          throw WebError(.notFound, "no page \(path) to explain")
        }
        request.task = "edit"
      }
    case 3:
      let entity = try names.entity(String(segments[0]))
      let owner = try object(entity, segments[1])
      guard let name = try? names.property(String(segments[2]), of: entity),
        let relationship = entity.relationship(named: name)
      else { throw WebError(.notFound, "\(entity.name) has no relationship \(segments[2])") }
      let destination = try names.entity(relationship.destinationName)
      request.entityName = destination.name
      if relationship.isToMany {
        request.task = "list"
        request.auxiliaryQualifier = database.qualifier(for: relationship, of: owner)
      } else {
        guard let target = try owner.related(name) else {
          throw WebError(.notFound, "\(entity.name) \(owner.primaryKeyDescription) has no \(name)")
        }
        request.task = "inspect"
        request.object = target
      }
    default:
      throw WebError(.notFound, "no page \(path) to explain")
    }
    return request
  }

  /// The explanation page's HTML: per key, its value, the winner with its place, the
  /// candidates (each that did not match with its first false condition), and the look-ups.
  static func explanationPage(
    _ explanations: [KeyExplanation], subject: String, page: String, context: RuleContext,
    links: WebLinks, editsRules: Bool = false
  ) -> String {
    let output = StringOutput()
    let title = "Why is \(subject) as it is?"
    HTMLRenderer.writeHead(
      title: title, databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
      to: output)
    HTMLRenderer.writeBreadcrumb(
      [("Entities", "/"), ("the page", page + "?explain=1")], to: output)
    output.write("<h1>\(HTML.escape(title))</h1>\n")
    output.write(
      "<p class=\"hint\">The rules of <a href=\"\(HTML.escape(page))\">\(HTML.escape(page))</a> (task \(HTML.escape(context.task)), platform html), for the logged-in user. Each key: its value, the rule that gave it, and every rule that was tried.</p>\n"
    )
    for explanation in explanations {
      output.write(
        "<section class=\"why\"><h2><code>\(HTML.escape(explanation.key)) = \(HTML.escape(explanation.value))</code></h2>\n"
      )
      if let winner = explanation.winner {
        output.write(
          "<p>Rule that won: <code>\(HTML.escape(winner))</code>\(explanation.winnerPlace.map { " at <code>\(HTML.escape($0))</code>" } ?? "")</p>\n"
        )
      } else {
        output.write("<p>No rule gave it: \(HTML.escape(explanation.source)).</p>\n")
      }
      if !explanation.candidates.isEmpty {
        output.write(
          "<table class=\"list\"><thead><tr><th scope=\"col\">rank</th><th scope=\"col\">status</th><th scope=\"col\">rule</th><th scope=\"col\">where</th><th scope=\"col\">first false condition</th></tr></thead><tbody>\n"
        )
        for candidate in explanation.candidates {
          let lost = candidate.status != "matched"
          let condition = candidate.falseCondition.map { condition in
            let values = candidate.actual.map { "\($0.path) = \($0.value)" }.joined(
              separator: ", ")
            return "<code>\(HTML.escape(condition))</code>"
              + (values.isEmpty ? "" : " (here \(HTML.escape(values)))")
          }
          output.write(
            "<tr\(lost ? " class=\"lost\"" : "")><td>\(candidate.rank)</td><td>\(HTML.escape(candidate.status))</td><td>\(lost ? "<s>" : "")<code>\(HTML.escape(candidate.rule))</code>\(lost ? "</s>" : "")</td><td>\(HTML.escape(candidate.place ?? ""))</td><td>\(condition ?? "")</td></tr>\n"
          )
        }
        output.write("</tbody></table>\n")
      }
      if editsRules {
        // Direct to Web's WebAssistant: a rule for this key on this page, to change and
        // preview (`--rules-output`).
        let property = context.propertyKey.isEmpty ? nil : context.propertyKey
        output.write(
          ruleForm(
            rule: suggestedRule(explanation, context: context, property: property != nil),
            page: page, property: property, csrf: links.csrf ?? "", saves: false))
      }
      if !explanation.tree.isEmpty {
        output.write(
          "<details><summary>Look-ups</summary><pre>\(HTML.escape(explanation.tree.joined(separator: "\n")))</pre></details>\n"
        )
      }
      output.write("</section>\n")
    }
    if editsRules { output.write(undoForm(page: page, csrf: links.csrf ?? "")) }
    HTMLRenderer.writeTail(to: output)
    return output.text
  }
}
