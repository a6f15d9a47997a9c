import Components
import D2SModel
import Foundation

/// Logging in and out, and the edit form: every POST needs its CSRF token; permissions are
/// checked on the server against the row as it is stored when the POST arrives.
extension WebApplication {
  /// `GET /-/login` (the form, with a fresh pre-session cookie) and `POST /-/login`.
  func login(_ request: WebRequest) async throws -> WebResponse {
    let next = Self.localPath(
      HTML.queryParameters(Substring(request.query))?.last { $0.0 == "next" }?.1)
    guard request.method == "POST" else {
      return loginPage(next: next, failed: false, status: 200)
    }
    guard let form = request.form, let binding = WebSession.loginBinding(request, keys: keys),
      let token = form.last(where: { $0.0 == "_csrf" })?.1,
      keys.check(token, "login", boundTo: binding)
    else { throw WebError(.forbidden, "the form has expired: load the login page again") }
    let name = form.last { $0.0 == "user" }?.1 ?? ""
    let password = form.last { $0.0 == "password" }?.1 ?? ""
    let target = Self.localPath(form.last { $0.0 == "next" }?.1) ?? next ?? "/"
    if let wait = throttle.reserve(user: name, address: request.clientAddress) {
      let seconds = max(1, Int((Double(wait.components.seconds) + 0.999).rounded(.down)))
      throw WebError(.tooManyRequests, "too many attempts: try again in \(seconds) s")
    }
    let application = pageApplication
    let keys = keys
    let databaseName = databaseName
    let cookie: String? = try await pool.withDatabase { database in
      var context = application.base
      context.database = database
      guard let user = try? Login.authenticate(login: name, password: password, in: context)
      else { return nil }
      return WebSession.cookieValue(for: user, database: databaseName, keys: keys)
    }
    guard let cookie else {
      throttle.failed(user: name, address: request.clientAddress)
      return loginPage(next: target, failed: true, status: 401)
    }
    throttle.succeeded(user: name, address: request.clientAddress)
    let secure = configuration.httpsOnly
    return WebResponse(
      status: 303, contentType: "text/plain; charset=utf-8",
      headers: [
        ("Location", target), ("Cache-Control", "no-store"),
        WebSession.setCookie(
          WebSession.cookie, cookie, secure: secure, lifetime: SessionKeys.sessionLifetime),
        WebSession.setCookie(WebSession.loginCookie, nil, secure: secure, lifetime: 0),
      ], body: "logged in\n")
  }

  /// The login form, with a new pre-session cookie its CSRF token is bound to.
  private func loginPage(next: String?, failed: Bool, status: Int) -> WebResponse {
    let binding = WebSession.newLoginBinding(keys: keys)
    let output = StringOutput()
    HTMLRenderer.writeHead(title: "Log in", databaseName: databaseName, to: output)
    output.write("<h1>Log in</h1>\n")
    if failed { output.write("<p class=\"error\" role=\"alert\">Login failed.</p>\n") }
    output.write(
      """
      <form class="login" method="post" action="/-/login">
      <input type="hidden" name="_csrf" value="\(HTML.escape(keys.token("login", boundTo: binding)))">
      <input type="hidden" name="next" value="\(HTML.escape(next ?? "/"))">
      <p><label for="f-user">User</label> <input id="f-user" name="user" autocomplete="username" required></p>
      <p><label for="f-password">Password</label> <input id="f-password" name="password" type="password" autocomplete="current-password"></p>
      <p><button type="submit">Log in</button></p>
      </form>

      """)
    HTMLRenderer.writeTail(to: output)
    return WebResponse(
      status: status, contentType: "text/html; charset=utf-8",
      headers: [
        ("Cache-Control", "no-store"),
        WebSession.setCookie(
          WebSession.loginCookie, binding, secure: configuration.httpsOnly,
          lifetime: SessionKeys.loginFormLifetime),
      ], body: output.text)
  }

  /// `POST /-/logout`: clears the session cookie.
  func logout(_ request: WebRequest, session: WebSession?) throws -> WebResponse {
    guard request.method == "POST" else {
      throw WebError(.methodNotAllowed, "log out with the button on any page")
    }
    try requireToken(request, session: session)
    return WebResponse(
      status: 303, contentType: "text/plain; charset=utf-8",
      headers: [
        ("Location", "/"), ("Cache-Control", "no-store"),
        WebSession.setCookie(
          WebSession.cookie, nil, secure: configuration.httpsOnly, lifetime: 0),
      ], body: "logged out\n")
  }

  /// Throws 403 unless the POST carries the CSRF token of its session.
  func requireToken(_ request: WebRequest, session: WebSession?) throws {
    guard let session, let token = request.form?.last(where: { $0.0 == "_csrf" })?.1,
      keys.check(token, "csrf", boundTo: session.token)
    else { throw WebError(.forbidden, "the form has expired or is not from this session") }
  }

  /// `next=`, when it is a path on this site (`/Film/1`), never another site (`//evil`).
  static func localPath(_ text: String?) -> String? {
    guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"),
      !text.contains(where: {
        $0.isWhitespace || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true
      })
    else { return nil }
    return text
  }

  /// `GET /ENTITY/KEY/-/edit` (the form) and `POST` to it (the save).
  func edit(_ request: WebRequest, segments: [Substring], session: WebSession?) async throws
    -> WebResponse
  {
    guard let name = HTML.percentDecoded(segments[0]) else {
      throw WebError(.notFound, "no page here")
    }
    if request.method == "POST" { try requireToken(request, session: session) }
    guard session != nil else {
      guard request.method != "POST" else { throw WebError(.forbidden, "log in to edit") }
      return WebResponse(
        status: 303, contentType: "text/plain; charset=utf-8",
        headers: [("Location", "/-/login?next=" + HTML.queryComponent(request.path))],
        body: "log in to edit\n")
    }
    if configuration.readOnly {
      throw WebError(.forbidden, "this server is read-only")
    }
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
        throw WebError(.forbidden, "log in to edit")
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
        task: "edit", entityName: entity.name, object: object, user: user, platform: "html",
        width: nil)
      request.database = database
      let editing: EditingSession
      do {
        editing = try EditingSession.edit(
          object, in: try application.context(for: request), formatters: application.formatters)
      } catch is PermissionError {
        throw WebError(.forbidden, "you may not edit \(object.displayDescription)")
      }
      let inspect = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/"
      var form = WebForm(
        action: path, csrf: links.csrf ?? "", cancel: inspect)
      links.entity = entity
      links.objectKey = object.primaryKeyValues
      links.editable = Self.editableKeys(editing)
      links.visibleEntities = names.visible
      if let post {
        let fields = try PostedField.fields(post, editable: links.editable)
        for field in fields
        where field.isNull && entity.attribute(named: field.key)?.allowsNull != true {
          throw WebError(.badRequest, "\(field.key) cannot be NULL")
        }
        let changed = fields.filter(\.isChanged)
        if changed.isEmpty { return .saved(inspect) }
        let conflicts = changed.filter { field in
          guard let token = field.shownToken, let shown = try? PositionToken.decode(token).first
          else { return true }
          return object.databaseValue(forAttribute: field.key) ?? .null != shown
        }
        for field in fields {
          form.typed[field.key] = field.text
          if field.isNull { form.nulls.insert(field.key) }
          form.shown[field.key] = field.shownToken
          form.shownText[field.key] = field.shownText
        }
        if !conflicts.isEmpty {
          return .conflict(
            try Self.conflictPage(
              conflicts, object: object, editing: editing, links: links, form: form,
              application: application, request: request))
        }
        for field in changed {
          do {
            try editing.set(field.key, to: field.isNull ? .null : .string(field.text))
          } catch {
            form.errors[field.key] = Self.message(error)
          }
        }
        if form.errors.isEmpty {
          do {
            try editing.save()
            return .saved(
              WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? inspect)
          } catch is PermissionError {
            throw WebError(.forbidden, "you may not save these values")
          } catch let failure as DatabaseError where failure.code == .conflict {
            throw WebError(.conflict, "the row was changed or deleted meanwhile: load it again")
          } catch let failure as DatabaseError
            where [.notNull, .unique, .check, .foreignKey, .invalidValue].contains(failure.code)
          {
            form.message = "not saved: " + Self.message(failure)
          }
        }
      }
      links.form = form
      var page = request
      page.object = editing.object
      let html = try Self.renderPage(page, application: application, links: links)
      return post == nil ? .page(html) : .invalid(html)
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
        headers: [("Location", location), ("Cache-Control", "no-store")], body: "saved\n")
    case .page(let html), .invalid(let html), .conflict(let html):
      let status: Int
      switch outcome {
      case .invalid: status = 400
      case .conflict: status = 409
      default: status = 200
      }
      return WebResponse(
        status: status, contentType: "text/html; charset=utf-8",
        headers: [("Cache-Control", "no-store")], body: html)
    }
  }

  /// What an edit request ends in.
  enum EditOutcome: Sendable {
    /// The session's user is gone (or changed password): log in again.
    case login
    case saved(String)
    case page(String)
    case invalid(String)
    case conflict(String)
  }

  /// The attributes the edit page shows as fields: those the rules give an edit component,
  /// stored (not generated, not blobs), never the key and never a password.
  static func editableKeys(_ editing: EditingSession) -> Set<String> {
    let entity = editing.object.entity
    let keys = Set(entity.primaryKeyAttributeNames)
    return Set(
      editing.context.displayPropertyKeys.filter { key in
        guard let attribute = entity.attribute(named: key), !keys.contains(key),
          !attribute.isPassword, !attribute.isGenerated, attribute.valueType != .data,
          !attribute.isRowID
        else { return false }
        let component = editing.context.with(\.propertyKey, key).component?.name ?? ""
        return component.hasPrefix("Edit")
      })
  }

  /// An error's message for the page: a formatter's or a type's own words for a value the user
  /// typed; for what the database refused, a fixed sentence (its own text can hold other rows'
  /// values), the detail going to the log.
  static func message(_ error: any Error) -> String {
    if let failure = error as? DatabaseError {
      switch failure.code {
      case .invalidValue: return failure.message
      case .notNull: return "a value is required"
      case .unique: return "another row already has this value"
      case .check: return "the database does not accept this value"
      case .foreignKey: return "this refers to a row that does not exist"
      default: return "the database refused the change"
      }
    }
    if error is FormatterError { return String(describing: error) }
    return "not a valid value"
  }

  /// The HTML of `request`'s page with `links`.
  static func renderPage(_ request: PageRequest, application: PageApplication, links: WebLinks)
    throws -> String
  {
    let context = try application.context(for: request)
    let environment = application.environment(for: request)
    let (text, errors) = try context.engine.collectingReadErrors { () throws -> String in
      let output = StringOutput()
      let visibility = WebVisibility(
        model: links.model, visible: links.visibleEntities ?? [], entity: links.entity)
      try HTMLRenderer(links: links).render(
        visibility.filter(try environment.pageNode(context)), to: output)
      return output.text
    }
    if let first = errors.first { throw first }
    return text
  }

  /// The 409 page: for each changed column what the user saw, what is stored now and what
  /// they typed; their values can be saved against the current row, or the stored ones taken.
  static func conflictPage(
    _ conflicts: [PostedField], object: DatabaseObject, editing: EditingSession, links: WebLinks,
    form: WebForm, application: PageApplication, request: PageRequest
  ) throws -> String {
    let output = StringOutput()
    HTMLRenderer.writeHead(
      title: "Changed meanwhile", databaseName: links.databaseName, user: links.userName,
      csrf: links.csrf, to: output)
    output.write(
      "<h1>Changed meanwhile</h1>\n<p>Someone saved \(HTML.escape(object.displayDescription)) after you opened it. Nothing has been written.</p>\n"
    )
    output.write(
      "<table class=\"list\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">You saw</th><th scope=\"col\">Stored now</th><th scope=\"col\">You typed</th></tr></thead><tbody>\n"
    )
    var keep = form
    for field in conflicts {
      let stored = object.databaseValue(forAttribute: field.key) ?? .null
      let storedText =
        stored.isNull
        ? "" : Self.text(of: field.key, editing: editing, formatters: application.formatters)
      output.write(
        "<tr><th scope=\"row\">\(HTML.escape(field.key))</th><td>\(HTML.escape(field.shownText ?? ""))</td><td>\(HTML.escape(storedText))</td><td>\(HTML.escape(field.isNull ? "NULL" : field.text))</td></tr>\n"
      )
      keep.shown[field.key] = PositionToken.encode([stored]) ?? "n"
      keep.shownText[field.key] = storedText
    }
    output.write("</tbody></table>\n<h2>Keep your values</h2>\n")
    // The form again, with the stored values as the ones shown: saving it writes the user's
    // values over the current row (and conflicts again if the row changes once more).
    var links = links
    links.form = keep
    let html = try renderPage(request, application: application, links: links)
    if let start = html.range(of: "<form class=\"edit\""),
      let end = html.range(of: "</form>\n", range: start.upperBound..<html.endIndex)
    {
      output.write(String(html[start.lowerBound..<end.upperBound]))
    }
    output.write(
      "<h2>Or take the stored values</h2>\n<p><a href=\"\(HTML.escape(keep.action))\">Edit the stored row</a></p>\n"
    )
    HTMLRenderer.writeTail(to: output)
    return output.text
  }

  /// The text `key` shows for the editing session's object, through its formatter.
  static func text(of key: String, editing: EditingSession, formatters: FormatterRegistry)
    -> String
  {
    let value = editing.object.databaseValue(forAttribute: key) ?? .null
    let attribute = editing.object.entity.attribute(named: key)
    if let name = editing.context.with(\.propertyKey, key).formatter?.name,
      let formatter = formatters.formatter(named: name)
    {
      return formatter.format(value, for: attribute)
    }
    return value.description
  }
}
