import Components
import D2SApplication
import D2SHTML
import D2SModel
import Qualifiers

/// The query page (`/ENTITY/-/query`, Direct to Web's query task): the form, its JSON
/// description, and, once submitted (`run=`), a 303 to the list with the qualifier it makes as
/// `where=`.
extension WebApplication {
  func query(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    let segments = Self.segments(of: request.path)
    guard segments.count == 3, let name = HTML.percentDecoded(segments[0]) else {
      throw WebError(.notFound, "no page here")
    }
    let format = try request.format
    guard format.csvOptions == nil else {
      throw WebError(.badRequest, "format: a query page is html or json")
    }
    let parameters = request.parameters
    let (databaseName, keys) = (databaseName, keys)
    return try await timed(client: request.clientAddress) { application, database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      let user = try Self.user(
        session, in: database, keys: keys, links: &links, base: application.base)
      var context = application.base
      context.database = database
      context.platform = format.platform
      if let user { context.user = user }
      let names = ModelNames(context: context, policy: .shown)
      let entity = try names.entity(name)
      try entity.requireDetails()  // a form without fields would drop the user's search
      context.entity = entity
      context.task = "query"
      let form = try QueryForm(context: context)
      if format == .json {
        return WebResponse(
          contentType: format.contentType, headers: [("Vary", "Accept")], body: form.json + "\n")
      }
      var error: String?
      if parameters.contains(where: { $0.0 == "run" }) {
        do {
          let text = try form.qualifierText(parameters)
          // The list checks the qualifier as any typed one: a bad value shows there.
          let target =
            WebLinks.entityPath(entity.name)
            + (text.isEmpty ? "" : "?" + HTML.query([("where", text)]))
          return WebResponse(
            status: 303, contentType: "text/plain; charset=utf-8",
            headers: [("Location", target), ("Cache-Control", "no-store")], body: "see \(target)\n")
        } catch let failure as QueryFormError {
          error = failure.message
        }
      }
      let title =
        "Search "
        + (context.displayNameForEntity.isEmpty ? entity.name : context.displayNameForEntity)
      return WebResponse(
        status: error == nil ? 200 : 400, contentType: format.contentType,
        headers: [("Vary", "Accept"), ("Cache-Control", "no-store")],
        body: QueryPage.html(form, title: title, values: parameters, error: error, links: links))
    }.value
  }
}
