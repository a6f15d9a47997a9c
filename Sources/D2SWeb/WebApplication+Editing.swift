import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import NIOCore
import RuleCore

/// Logging in and out, and the edit form: every POST needs its CSRF token; permissions are
/// checked on the server against the row as it is stored when the POST arrives.
extension WebApplication {
  /// `GET /-/login` (the form, with a fresh pre-session cookie) and `POST /-/login`.
  func login(_ request: WebRequest) async throws -> WebResponse {
    let next = Self.localPath(
      request.parameters.last { $0.0 == "next" }?.1)
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
      let seconds = Self.retryAfterSeconds(wait)
      throw WebError(
        .tooManyRequests, "too many attempts: try again in \(seconds) s", retryAfter: seconds)
    }
    let keys = keys
    let databaseName = databaseName
    let record: SessionRecord? = try await pool.withDatabase(client: request.clientAddress) {
      [self] database in
      let application = pageApplication(for: database)
      var context = application.base
      context.database = database
      // Only a wrong name or password is a failed login; a database that cannot answer now
      // (locked, unreachable) is its own error page, and counts against no one.
      do {
        let user = try Login.authenticate(login: name, password: password, in: context)
        return WebSession.record(for: user, database: databaseName, keys: keys)
      } catch is LoginError {
        return nil
      }
    }
    guard let record else {
      throttle.failed(user: name, address: request.clientAddress)
      logger.notice(
        "login failed for \(Self.loggedName(name)) from \(request.clientAddress)")
      return loginPage(next: target, failed: true, status: 401)
    }
    let cookie = try await WebSession.begin(record, keys: keys, store: sessions)
    throttle.succeeded(user: name, address: request.clientAddress)
    logger.notice("login of \(Self.loggedName(name)) from \(request.clientAddress)")
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
    let output = ByteBufferOutput()
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
      ], bytes: output.buffer)
  }

  /// `POST /-/logout`: ends the session (the server forgets it: a copy of the cookie is an
  /// anonymous visitor's) and clears its cookie.
  func logout(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    guard request.method == "POST" else {
      throw WebError(.methodNotAllowed, "log out with the button on any page", allow: "POST")
    }
    // Its CSRF token was checked before the route ran (WebFormMiddleware).
    if let session { try await sessions.delete(hash: session.hash) }
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
  func edit(
    _ request: WebRequest, _ write: WriteRequest, segments: [Substring], session: WebSession?
  ) async throws -> WebResponse {
    let key = segments[1]
    let path = request.path
    let keys = keys
    let restamp = NewStamp()
    let secure = configuration.httpsOnly
    let found = write.post == nil && !write.json ? SavedNotice.notice(request, secure: secure) : nil
    let notice = found?.0
    let outcome = try await withWriter(write, session: session, verb: "edit") { scope in
      let (application, names, entity) = (scope.application, scope.names, scope.entity)
      let object = try Self.object(key, of: entity, names: names, in: scope.database)
      let request = scope.request("edit", object: object)
      let editing: EditingSession
      let asked = try application.context(for: request)
      do {
        editing = try EditingSession.edit(object, in: asked, formatters: application.formatters)
      } catch is PermissionError {
        throw Self.refusal(
          "you may not edit \(object.displayDescription)", key: "isObjectEditable",
          page: path.replacingOccurrences(of: "/-/edit", with: ""), context: asked)
      }
      let inspect = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? "/"
      var form = WebForm(action: path, csrf: scope.links.csrf ?? "", cancel: inspect)
      scope.links.objectKey = object.primaryKeyValues
      scope.links.breadcrumb = WebLinks.trail(to: entity, object: object, context: editing.context)
      scope.links.continues = true
      scope.links.notice = notice
      // "why?" beside every label, for a user a rule lets see explanations.
      if write.query.contains(where: { $0 == ("explain", "1") }), editing.context.mayExplain {
        scope.links.explainedPage = path
      }
      var page = request
      page.object = editing.object
      guard let post = write.post else {
        // The form as stored: its page is made once, for its fields and for the HTML.
        let html = try Self.withPage(page, application: application) { node in
          scope.links.editable = try Self.editableKeys(
            editing, page: request, application: application, reaches: names.reaches,
            fields: node.editFieldKeys)
          form.widgets = try FieldWidgets.widgets(
            for: scope.links.editable, editing: editing, choose: inspect + "/-/choose/")
          Self.prefill(&form, from: write.query, editable: scope.links.editable)
          scope.links.form = form
          let output = ByteBufferOutput()
          try Self.render(node, links: scope.links, format: write.json ? .json : .html, to: output)
          return output.buffer
        }
        return .page(html)
      }
      scope.links.editable = try Self.editableKeys(
        editing, page: request, application: application, reaches: names.reaches)
      form.widgets = try FieldWidgets.widgets(
        for: scope.links.editable, editing: editing, choose: inspect + "/-/choose/")
      do {
        let fields = try PostedField.fields(
          post, editable: scope.links.editable, widgets: form.widgets,
          nullable: { Self.allowsNull($0, in: entity) })
        for field in fields where field.isNull && !Self.allowsNull(field.key, in: entity) {
          throw WebError(.badRequest, "\(field.key) cannot be NULL")
        }
        let changed = fields.filter(\.isChanged)
        // "Save and continue editing" comes back to this form.
        let continuing = post.contains { $0.0 == "_continue" }
        if changed.isEmpty { return .saved(continuing ? path : inspect) }
        let conflicts = changed.filter { field in
          guard let token = field.shownToken else { return true }
          let stored = Self.storedValue(field.key, of: object)
          // A long value's token came back as its digest.
          if token.hasPrefix(FormDigest.tokenMark) {
            let now = PositionToken.encode([stored], arrays: true) ?? "n"
            return !FormDigest.token(now, matches: token)
          }
          guard let shown = try? PositionToken.decode(token).first else { return true }
          return stored != shown
        }
        if !conflicts.isEmpty {
          var shownForm = form
          shownForm.keep(fields)
          return .conflict(
            try Self.conflictPage(
              conflicts, object: object, editing: editing, links: scope.links, form: shownForm,
              application: application, request: request))
        }
        if try Self.apply(fields, to: editing, form: &form, names: names) {
          // Users who changed their own login name keep this session; their others end.
          if let session, entity.name == session.entity, object.primaryKeyValues == session.key {
            let stamp = WebSession.stamp(of: editing.object, keys: keys)
            if stamp != session.record.stamp { restamp.stamp.withLock { $0 = stamp } }
          }
          let saved = WebLinks.objectPath(entity.name, key: object.primaryKeyValues) ?? inspect
          return .saved(continuing ? saved + "/-/edit" : saved)
        }
      }
      scope.links.form = form
      let html = try Self.renderPage(
        page, application: application, links: scope.links, format: write.json ? .json : .html)
      return form.isBusy ? .busy(html) : .invalid(html)
    }
    if let session, let stamp = restamp.stamp.withLock({ $0 }) {
      try await sessions.restamp(hash: session.hash, stamp: stamp)
    }
    var answer = response(outcome, path: request.path, done: "saved", json: write.json)
    if let clear = found?.1 { answer.headers.append(clear) }
    return answer
  }

  /// The text a field first showed, for the conflict page: a long one, which came back as
  /// its digest, is not shown again.
  static func shownAgain(_ text: String?) -> String {
    guard let text else { return "" }
    return text.hasPrefix(FormDigest.textMark) ? "(too long to show again)" : text
  }

  /// Whether `key` (an attribute, or a to-one by its foreign keys) may be NULL.
  static func allowsNull(_ key: String, in entity: Entity) -> Bool {
    entity.allowsNull(key)
  }

  /// The stored value of `key`: an attribute's value, or a to-one's foreign key (one column),
  /// as the form's `_shown` token holds it.
  static func storedValue(_ key: String, of object: DatabaseObject) -> DatabaseValue {
    if object.entity.attribute(named: key) != nil {
      return object.databaseValue(forAttribute: key) ?? .null
    }
    guard let relationship = object.entity.relationship(named: key) else { return .null }
    let values = relationship.joins.map { object.databaseValue(forAttribute: $0.source) ?? .null }
    return values.count == 1 ? values[0] : .string(FieldWidgets.keyText(values))
  }

  /// The properties the edit page shows as fields: those its page shows as edit fields (the
  /// rules gave them a component that edits), either stored attributes (not generated, not blobs, never the key and never a password)
  /// or to-ones to an entity the user may reach whose foreign keys are such attributes. A new
  /// object's page also has its key's columns, unless the database makes them.
  static func editableKeys(
    _ editing: EditingSession, page request: PageRequest, application: PageApplication,
    reaches: (String) -> Bool, fields known: Set<String>? = nil
  ) throws -> Set<String> {
    var request = request
    request.object = editing.object
    let fields = try known ?? editFieldKeys(request, application: application)
    let entity = editing.object.entity
    let keys = Set(entity.primaryKeyAttributeNames)
    // A foreign key into an entity the user may not reach is not typed in: what saves and what
    // the database refuses would tell which of its rows exist.
    let hiddenKeys = Set(
      entity.relationships.filter { !$0.isToMany && !reaches($0.destinationName) }
        .flatMap { $0.joins.map(\.source) })
    func writable(_ attribute: Attribute?) -> Bool {
      guard let attribute, !attribute.isPassword, !attribute.isGenerated,
        attribute.valueType != .data, !attribute.isRowID, !hiddenKeys.contains(attribute.name),
        !editing.isIdentityLocked(attribute.name)
      else { return false }
      return !keys.contains(attribute.name)
    }
    return Set(
      editing.context.displayPropertyKeys.filter { key in
        guard fields.contains(key) else { return false }
        if let relationship = entity.relationship(named: key) {
          return !relationship.isToMany && !relationship.isFlattened
            && reaches(relationship.destinationName)
            && relationship.joins.allSatisfy { writable(entity.attribute(named: $0.source)) }
        }
        return writable(entity.attribute(named: key))
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
    if error is FormatterError || error is FieldError { return String(describing: error) }
    return "not a valid value"
  }

  /// The HTML of `request`'s page with `links` (or its JSON or CSV, by `format`), within the page's
  /// dependencies (its database, the rules, the registries), as ``PageApplication`` renders,
  /// in the buffer it is sent from. `context` is the request's, when the caller has made it
  /// already.
  static func renderPage(
    _ request: PageRequest, context: RuleContext? = nil, application: PageApplication,
    links: WebLinks, format: WebFormat = .html
  ) throws -> ByteBuffer {
    let output = ByteBufferOutput()
    try renderPage(
      request, context: context, application: application, links: links, format: format,
      to: output)
    return output.buffer
  }

  /// Writes the page of `request` to `output` as it is rendered (a list's rows stream).
  static func renderPage(
    _ request: PageRequest, context: RuleContext? = nil, application: PageApplication,
    links: WebLinks, format: WebFormat = .html, to output: any TextOutput
  ) throws {
    try withPage(request, context: context, application: application) { node in
      try render(node, links: links, format: format, to: output)
    }
  }

  /// Writes `node` in `format` (within its page's ``withPage(_:context:application:_:)``).
  static func render(
    _ node: ViewNode, links: WebLinks, format: WebFormat, to output: any TextOutput
  ) throws {
    switch format {
    case .html: try HTMLRenderer(links: links).render(node, to: output)
    case .json: try JSONRenderer().render(node, to: output)
    case .csv(let options): try CSVRenderer(options: options).render(node, to: output)
    }
  }

  /// `body` with the view tree of `request`'s page, within the page's dependencies, as
  /// ``PageApplication`` renders: a rule error met on the way (a cycle) fails the page.
  static func withPage<T>(
    _ request: PageRequest, context: RuleContext? = nil, application: PageApplication,
    _ body: (ViewNode) throws -> T
  ) throws -> T {
    try application.withPage(request, context: context, body)
  }

  /// The keys the edit page of `request` shows as edit fields, as its components decide.
  static func editFieldKeys(_ request: PageRequest, application: PageApplication) throws
    -> Set<String>
  {
    try withPage(request, application: application) { $0.editFieldKeys }
  }

  /// The 409 page: for each changed column what the user saw, what is stored now and what
  /// they typed; their values can be saved against the current row, or the stored ones taken.
  static func conflictPage(
    _ conflicts: [PostedField], object: DatabaseObject, editing: EditingSession, links: WebLinks,
    form: WebForm, application: PageApplication, request: PageRequest
  ) throws -> ByteBuffer {
    // The form again, with the stored values as the ones shown: saving it writes the user's
    // values over the current row (and conflicts again if the row changes once more). Fields
    // are named by the page's labels.
    let node = try withPage(request, application: application) { $0 }
    let labels = node.rowLabels
    let output = ByteBufferOutput()
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
      let stored = Self.storedValue(field.key, of: object)
      let storedText =
        stored.isNull
        ? ""
        : Self.text(
          of: field.key, object: object, context: editing.context,
          formatters: application.formatters)
      output.write(
        "<tr><th scope=\"row\">\(HTML.escape(labels[field.key] ?? field.key))</th><td>\(HTML.escape(Self.shownAgain(field.shownText)))</td><td>\(HTML.escape(storedText))</td><td>\(HTML.escape(field.isNull ? "NULL" : field.text))</td></tr>\n"
      )
      keep.shown[field.key] = PositionToken.encode([stored], arrays: true) ?? "n"
      keep.shownText[field.key] = storedText
    }
    output.write("</tbody></table>\n<h2>Keep your values</h2>\n")
    var links = links
    links.form = keep
    if case .page(let page) = node {
      try HTMLRenderer(links: links).writeForm(page.content, form: keep, to: output)
    }
    output.write(
      "<h2>Or take the stored values</h2>\n<p><a href=\"\(HTML.escape(keep.action))\">Edit the stored row</a></p>\n"
    )
    HTMLRenderer.writeTail(to: output)
    return output.buffer
  }

  /// The text `key` shows for `object` in `context`, through its formatter: text as stored,
  /// arrays as PostgreSQL writes them.
  static func text(
    of key: String, object: DatabaseObject, context: RuleContext, formatters: FormatterRegistry
  ) -> String {
    let value = Self.storedValue(key, of: object)
    if case .array(let items) = value { return DatabaseValue.arrayText(items) }
    if case .string(let text) = value { return text }
    let attribute = object.entity.attribute(named: key)
    if let name = context.with(\.propertyKey, key).formatter?.name,
      let formatter = formatters.formatter(named: name)
    {
      return formatter.format(value, for: attribute)
    }
    return value.description
  }
}
