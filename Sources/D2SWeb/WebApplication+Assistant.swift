import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// `POST /-/rules`: the rule assistant (`--rules-output FILE`), for a logged-in user the rules
/// let change them (`mayEditRules`; never an anonymous visitor). `action=preview` checks the
/// typed rule and shows what it changes on the page it was typed for; `action=save` checks
/// again and appends it to the output file, which this server reloads at once and every
/// server watching the file within half a second; `action=undo` removes the last rule added.
/// Every form carries the session's CSRF token (checked before this runs).
extension WebApplication {
  func rules(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    guard let assistant else {
      throw WebError(.notFound, "rules are changed from pages only with --rules-output FILE")
    }
    let refusal = WebError(
      .forbidden, "changing the rules is for users a rule allows (mayEditRules = true)")
    guard let session else { throw refusal }
    let form = request.form ?? []
    func field(_ name: String) -> String? { form.last { $0.0 == name }?.1 }
    let page = field("page") ?? "/"
    guard page.hasPrefix("/"), !page.hasPrefix("//"), !page.hasPrefix("/-/") else {
      throw WebError(.badRequest, "page: the path of a page of this server (/Film/1)")
    }
    let action = field("action") ?? "preview"
    let text = field("rule") ?? ""
    let property = field("property")
    let (keys, databaseName, logger) = (self.keys, databaseName, logger)
    let timed = try await timed(client: request.clientAddress) { application, database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      guard
        let user = try Self.user(
          session, in: database, keys: keys, links: &links, base: application.base),
        try Self.mayEditRules(user, application: application, database: database)
      else { throw refusal }
      let who = links.userName ?? "someone"
      var message: String
      var preview: RuleAssistant.Preview?
      switch action {
      case "preview":
        do {
          preview = try assistant.preview(text, page: page, user: user, database: database)
          message = "Nothing is saved yet."
        } catch let error as AssistantError {
          message = error.description
        }
      case "save":
        do {
          // Checked again under the file's lock: another server's rule appended meanwhile is
          // linted with this one.
          let (line, rule) = try assistant.output.append(by: who, at: Date()) {
            try assistant.preview(text, page: page, user: user, database: database).rule
          }
          try assistant.reload()
          logger.notice("rule added by \(Self.loggedName(who)) at \(assistant.output.path):\(line)")
          message = "Added at \(assistant.output.path):\(line): \(rule)"
        } catch let error as AssistantError {
          message = "Not saved: " + error.description
        }
      case "undo":
        do {
          let removed = try assistant.output.undoLast()
          try assistant.reload()
          logger.notice("rule removed by \(Self.loggedName(who)) from \(assistant.output.path)")
          message = "Removed: \(removed)"
        } catch let error as AssistantError {
          message = error.description
        }
      default:
        throw WebError(.badRequest, "action: preview, save or undo")
      }
      return Self.assistantPage(
        message: message, preview: preview, rule: text, page: page,
        property: property, links: links)
    }
    return WebResponse(
      contentType: "text/html; charset=utf-8", headers: [("Cache-Control", "no-store")],
      body: timed.value)
  }

  /// Whether `user` may change the rules: `mayEditRules` asked of the user alone, on no page
  /// (a rule that grants it on one page would otherwise let its rules, which apply to every
  /// page, and its Undo, which removes anyone's, through).
  static func mayEditRules(
    _ user: DatabaseObject, application: PageApplication, database: Database
  ) throws -> Bool {
    var request = PageRequest(user: user, platform: "html", width: nil)
    request.database = database
    return try application.context(for: request).mayEditRules
  }

  /// The assistant's page: what happened, the preview's changes and pages, and the forms to
  /// save, change the rule again, or undo.
  static func assistantPage(
    message: String, preview: RuleAssistant.Preview?, rule: String, page: String,
    property: String?, links: WebLinks
  ) -> String {
    let output = StringOutput()
    HTMLRenderer.writeHead(
      title: "Change the rules", databaseName: links.databaseName, user: links.userName,
      csrf: links.csrf, to: output)
    HTMLRenderer.writeBreadcrumb([("Entities", "/"), ("the page", page)], to: output)
    output.write("<h1>Change the rules</h1>\n")
    output.write("<p class=\"saved\" role=\"status\">\(HTML.escape(message))</p>\n")
    if let preview {
      output.write("<h2>What changes on \(HTML.escape(page))</h2>\n")
      if preview.changes.isEmpty {
        output.write("<p class=\"hint\">No answer of this page changes.</p>\n")
      } else {
        output.write("<ul class=\"changes\">\n")
        for change in preview.changes {
          output.write("<li><code>\(HTML.escape(change))</code></li>\n")
        }
        output.write("</ul>\n")
      }
    }
    output.write(
      ruleForm(
        rule: preview?.rule ?? rule, page: page, property: property, csrf: links.csrf ?? "",
        saves: preview != nil))
    if let preview {
      output.write(
        "<h2>The page now</h2>\n<pre class=\"page\">\(HTML.escape(preview.before))</pre>\n<h2>With the rule</h2>\n<pre class=\"page\">\(HTML.escape(preview.after))</pre>\n"
      )
    }
    output.write(undoForm(page: page, csrf: links.csrf ?? ""))
    output.write(
      "<p><a href=\"\(HTML.escape(page))\">Back to the page</a> · <a href=\"\(HTML.escape(page + "?explain=1"))\">with explanations</a></p>\n"
    )
    HTMLRenderer.writeTail(to: output)
    return output.text
  }

  /// The form that removes the last rule added from a page.
  static func undoForm(page: String, csrf: String) -> String {
    "<form class=\"inline undo\" method=\"post\" action=\"/-/rules\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(csrf))\"><input type=\"hidden\" name=\"page\" value=\"\(HTML.formValue(page))\"><button type=\"submit\" name=\"action\" value=\"undo\">Undo the last rule added from a page</button></form>\n"
  }

  /// The form that previews (and, once previewed, saves) a rule typed for `page`.
  static func ruleForm(
    rule: String, page: String, property: String?, csrf: String, saves: Bool
  ) -> String {
    let propertyField =
      property.map {
        "<input type=\"hidden\" name=\"property\" value=\"\(HTML.formValue($0))\">"
      } ?? ""
    let save =
      saves ? " <button type=\"submit\" name=\"action\" value=\"save\">Save the rule</button>" : ""
    return
      "<form class=\"rule\" method=\"post\" action=\"/-/rules\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(csrf))\"><input type=\"hidden\" name=\"page\" value=\"\(HTML.formValue(page))\">\(propertyField)<label>Rule <input class=\"rule\" name=\"rule\" size=\"80\" value=\"\(HTML.formValue(rule))\"></label> <button type=\"submit\" name=\"action\" value=\"preview\">Preview</button>\(save)</form>\n"
  }

  /// A rule that gives `explanation`'s key its current value on this page, for the user to
  /// change: the page's entity (and property) as its condition.
  static func suggestedRule(_ explanation: KeyExplanation, context: RuleContext, property: Bool)
    -> String
  {
    var conditions: [String] = []
    if let entity = context.entity {
      conditions.append("entity.name = \(Literal.quote(entity.name))")
    }
    if property { conditions.append("propertyKey = \(Literal.quote(context.propertyKey))") }
    let condition = conditions.isEmpty ? "*true*" : conditions.joined(separator: " AND ")
    return "\(condition) => \(explanation.key) = \(explanation.value)"
  }
}
