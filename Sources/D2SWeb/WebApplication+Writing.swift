import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation
import NIOCore
import Qualifiers
import RuleCore

/// What every route that can write (edit, new, delete, choose) does first, and how its
/// outcome becomes a response.
extension WebApplication {
  /// A write route's request once its preamble passed: the entity's name as typed and the
  /// posted form (nil for a GET).
  struct WriteRequest {
    let entityName: String
    let post: [(String, String)]?
    /// The query's parameters (`?language=2` from the choose page fills a field in).
    let query: [(String, String)]
    /// The client's address (its share of the pool).
    let client: String
    /// Whether the page is asked for as JSON (a form's `GET` with `Accept: application/json`).
    var json = false
  }

  /// What a write route's request ends in.
  enum EditOutcome: Sendable {
    /// The session's user is gone (or changed password): log in again.
    case login
    /// Saved: 303 to this path.
    case saved(String)
    /// A page to show (200), as it was written.
    case page(ByteBuffer)
    /// The form again, with what is wrong (400).
    case invalid(ByteBuffer)
    /// What changed meanwhile (409).
    case conflict(ByteBuffer)
    /// The form again: the database was busy (503).
    case busy(ByteBuffer)
  }

  /// Runs a write route's `handler` with its ``WriteRequest``; a visitor who has not logged
  /// in is sent to the login page instead.
  func writing(
    _ request: WebRequest, segments: [Substring], session: WebSession?, verb: String,
    _ handler: (WriteRequest) async throws -> WebResponse
  ) async throws -> WebResponse {
    guard let write = try writeRequest(request, entity: segments[0], session: session, verb: verb)
    else { return Self.loginRedirect(request.path) }
    return try await handler(write)
  }

  /// Checks what no write route may skip, in order: the CSRF token of a POST, a session
  /// (an anonymous GET is sent to log in: nil), a server that is not `--read-only`, a form
  /// body that parses.
  func writeRequest(
    _ request: WebRequest, entity segment: Substring, session: WebSession?, verb: String
  ) throws -> WriteRequest? {
    guard let name = HTML.percentDecoded(segment), !name.isEmpty else {
      throw WebError(.notFound, "no page here")
    }
    // A POST's CSRF token was checked before the route ran (WebFormMiddleware).
    let isPost = request.method == "POST"
    guard session != nil else {
      if isPost { throw WebError(.forbidden, "log in to \(verb)") }
      return nil
    }
    if configuration.readOnly { throw WebError(.forbidden, "this server is read-only") }
    guard !isPost || request.form != nil else {
      throw WebError(.badRequest, "the form is not valid")
    }
    return WriteRequest(
      entityName: name, post: isPost ? request.form : nil,
      query: request.parameters, client: request.clientAddress,
      json: !isPost && request.wantsJSON)
  }

  /// What a write route's work on its connection has: the database, the session's user, the
  /// page's links (with the header's user and the CSRF token), names as the rules allow
  /// them, and the entity the URL names.
  struct WriteScope {
    let database: Database
    let application: PageApplication
    let user: DatabaseObject
    let names: ModelNames
    let entity: Entity
    var links: WebLinks
    /// The renderer's platform: `json` for a form asked for as JSON, else `html`.
    var platform = "html"

    /// A request for a page of `task` on the entity, for the scope's platform.
    func request(_ task: String, object: DatabaseObject? = nil) -> PageRequest {
      var request = PageRequest(
        task: task, entityName: entity.name, object: object, user: user, platform: platform,
        width: nil)
      request.database = database
      return request
    }
  }

  /// Runs `body` on a pooled connection in the scope of `write`; `.login` when the session's
  /// user is gone or changed password (a POST then is 403). A form shown (a GET) reads in one
  /// read transaction, as the other pages do: one snapshot, the file locked once.
  func withWriter(
    _ write: WriteRequest, session: WebSession?, verb: String,
    _ body: @escaping @Sendable (inout WriteScope) throws -> EditOutcome
  ) async throws -> Timed<EditOutcome> {
    try await timed(client: write.client) { application, database in
      let run = {
        try Self.write(
          write, session: session, verb: verb, application: application, database: database,
          keys: self.keys, databaseName: self.databaseName, body)
      }
      return write.post == nil ? try database.adaptor.reading(run) : try run()
    }
  }

  /// `body` for `write` on `database`: the scope, or `.login`.
  private static func write(
    _ write: WriteRequest, session: WebSession?, verb: String, application: PageApplication,
    database: Database, keys: SessionKeys, databaseName: String,
    _ body: (inout WriteScope) throws -> EditOutcome
  ) throws -> EditOutcome {
    var links = WebLinks(databaseName: databaseName, model: database.model)
    guard
      let user = try Self.user(
        session, in: database, keys: keys, links: &links, base: application.base)
    else {
      if write.post == nil { return .login }
      throw WebError(.forbidden, "log in to \(verb)")
    }
    var base = application.base
    base.database = database
    base.platform = write.json ? "json" : "html"
    // Names resolve as the user sees them (a rule may make an entity unreachable for them).
    base.user = user
    let names = ModelNames(context: base, policy: .shown)
    let entity = try names.entity(write.entityName)
    links.entity = entity
    links.reaches = names.reaches
    var scope = WriteScope(
      database: database, application: application, user: user, names: names, entity: entity,
      links: links, platform: base.platform)
    return try body(&scope)
  }

  /// The object `key` names, or 404.
  static func object(_ key: Substring, of entity: Entity, names: ModelNames, in database: Database)
    throws -> DatabaseObject
  {
    guard let object = try database.fetchObject(entity.name, primaryKey: names.key(key, of: entity))
    else { throw WebError(.notFound, "no \(entity.name) with key \(key)") }
    return object
  }

  /// Fills in the to-ones the query names (the choose page's links), unsaved, on a form's
  /// first showing; never other fields, which a link from elsewhere could set unnoticed.
  static func prefill(_ form: inout WebForm, from query: [(String, String)], editable: Set<String>)
  {
    for (name, value) in query where editable.contains(name) {
      guard case .toOne = form.widgets[name]?.kind else { continue }
      form.typed[name] = value
    }
  }

  /// The response to a write route's outcome: 303 to log in or to where a save leads, or the
  /// page with its status; with `--timing`, its `Server-Timing`.
  func response(_ timed: Timed<EditOutcome>, path: String, done: String, json: Bool = false)
    -> WebResponse
  {
    var answer = response(timed.value, path: path, done: done, json: json)
    if let timing = timed.timing { answer.headers.append(("Server-Timing", timing)) }
    return answer
  }

  /// The response to a write route's outcome.
  func response(_ outcome: EditOutcome, path: String, done: String, json: Bool = false)
    -> WebResponse
  {
    switch outcome {
    case .login:
      return Self.loginRedirect(path)
    case .saved(let location):
      return WebResponse(
        status: 303, contentType: "text/plain; charset=utf-8",
        headers: [
          ("Location", location), ("Cache-Control", "no-store"),
          SavedNotice.setCookie(done: done, location: location, secure: configuration.httpsOnly),
        ], body: done + "\n")
    case .page(let html), .invalid(let html), .conflict(let html), .busy(let html):
      let status: Int
      switch outcome {
      case .invalid: status = 400
      case .conflict: status = 409
      case .busy: status = 503
      default: status = 200
      }
      return WebResponse(
        status: status,
        contentType: json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
        headers: [("Vary", "Accept"), ("Cache-Control", "no-store")], bytes: html)
    }
  }

  /// 303 to the login form, coming back to `path` afterwards.
  static func loginRedirect(_ path: String) -> WebResponse {
    WebResponse(
      status: 303, contentType: "text/plain; charset=utf-8",
      headers: [("Location", "/-/login?next=" + HTML.queryComponent(path))], body: "log in\n")
  }

  /// Sets the posted fields on `editing`, errors beside their fields; then saves when none
  /// failed. Whether the save happened; a constraint the database refused becomes the form's
  /// message.
  static func apply(
    _ fields: [PostedField], to editing: EditingSession, form: inout WebForm, names: ModelNames
  ) throws -> Bool {
    form.keep(fields)
    for field in fields where field.isChanged {
      do {
        try editing.set(
          field.key,
          to: value(field, widget: form.widgets[field.key], editing: editing, names: names))
      } catch {
        form.errors[field.key] = message(error)
      }
    }
    requireValues(editing, form: &form)
    guard form.errors.isEmpty, form.message == nil else { return false }
    do {
      try editing.save()
      return true
    } catch is PermissionError {
      throw WebError(.forbidden, "you may not save these values")
    } catch let failure as DatabaseError where failure.code == .conflict {
      throw WebError(.conflict, "the row was changed or deleted meanwhile: load it again")
    } catch let failure as DatabaseError
      where [.notNull, .unique, .check, .foreignKey, .invalidValue].contains(failure.code)
    {
      form.message = "not saved: " + message(failure)
      return false
    } catch let failure as DatabaseError where failure.code == .locked {
      // The form is shown again as the user left it: nothing is lost, the save can be retried.
      form.message = "not saved: the database is locked by another program; try again"
      form.isBusy = true
      return false
    } catch let failure as DatabaseError where failure.code == .outcomeUnknown {
      throw WebError(
        .unavailable,
        "the connection was lost while the change was being saved: it may or may not have been saved; look at the row before saving again"
      )
    }
  }

  /// Names each column that needs a value and has none (`Language: a value is required`),
  /// beside its field when the form has one (its own, or its to-one's), else in the form's
  /// message, before the database would refuse the save without saying which.
  static func requireValues(_ editing: EditingSession, form: inout WebForm) {
    let object = editing.object
    let entity = object.entity
    var unnamed: [String] = []
    for attribute in entity.attributes
    where attribute.requiresValue
      && (object.databaseValue(forAttribute: attribute.name) ?? .null).isNull
    {
      let field =
        form.widgets[attribute.name] != nil
        ? attribute.name
        : entity.relationships.first { relationship in
          !relationship.isToMany && form.widgets[relationship.name] != nil
            && relationship.joins.contains { $0.source == attribute.name }
        }?.name
      guard let field else {
        unnamed.append(editing.context.with(\.propertyKey, attribute.name).displayNameForProperty)
        continue
      }
      if form.errors[field] == nil { form.errors[field] = "a value is required" }
    }
    if !unnamed.isEmpty {
      form.message =
        "not saved: \(unnamed.joined(separator: ", ")) \(unnamed.count == 1 ? "needs" : "need") a value, which this form does not show"
    }
  }

  /// What a posted field stands for: NULL, a to-one's key, a checkbox's Bool, an array's
  /// elements, checked JSON, one of a select's values, or text for the formatter to parse.
  static func value(
    _ field: PostedField, widget: FieldWidget?, editing: EditingSession, names: ModelNames
  ) throws -> DatabaseValue {
    if field.isNull { return .null }
    let stored = editing.object.snapshotValue(forAttribute: field.key)
    // Text stored as bytes that are not UTF-8 shows them as `\xNN`, which no one can type
    // back: it is replaced whole, never edited into literal backslashes.
    if case .textBytes? = editing.object.databaseValue(forAttribute: field.key),
      field.text.contains("\\x")
    {
      throw FieldError(
        "the stored text is not UTF-8 (shown as \\xNN): replace it whole, without \\x")
    }
    switch widget?.kind ?? .text {
    case .toOne:
      guard let relationship = editing.object.entity.relationship(named: field.key) else {
        return .string(field.text)
      }
      if field.text.isEmpty { throw FieldError("choose one") }
      return try FieldWidgets.keyValue(field.text, of: relationship, names: names)
    case .checkbox:
      return .bool(field.text == "true")
    case .array:
      guard let items = DatabaseValue.parseArrayText(field.text) else {
        // Other lower bounds or several dimensions: PostgreSQL's own text, written as typed.
        let text = field.text
        if text.hasPrefix("[") || text.hasPrefix("{{"), ArrayText.parse(text) != nil {
          return .verbatim(text)
        }
        throw FieldError("write an array as {7,8} or {a,NULL,\"b c\"}")
      }
      return .array(items)
    case .json:
      do {
        _ = try JSONSerialization.jsonObject(
          with: Data(field.text.utf8), options: [.fragmentsAllowed])
      } catch {
        throw FieldError("not valid JSON")
      }
      return .string(LineBreaks.restore(field.text, like: stored))
    case .choice(let values):
      guard values.contains(field.text) else {
        throw FieldError("choose one of " + values.joined(separator: ", "))
      }
      return .string(field.text)
    default:
      return .string(LineBreaks.restore(field.text, like: stored))
    }
  }
}
