import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Foundation

/// `GET /ENTITY/-/new` (the form for a new object) and `POST` to it: the form carries a
/// signed one-time token, so that sending it twice makes one object, not two.
extension WebApplication {
  func create(
    _ request: WebRequest, _ write: WriteRequest, segments: [Substring], session: WebSession?
  ) async throws -> WebResponse {
    let path = request.path
    var nonce: String?
    let once: String
    if let post = write.post {
      guard let token = post.last(where: { $0.0 == "_once" })?.1,
        let (posted, expiry) = onceToken(token, path: path)
      else { throw WebError(.forbidden, "the form has expired: load it again") }
      switch onceTokens.claim(posted, expiry: expiry) {
      case .done(let location):
        return response(.saved(location), path: path, done: "already saved")
      case .pending:
        throw WebError(.conflict, "this form is being saved already")
      case .fresh:
        nonce = posted
      }
      once = token
    } else {
      once = newOnceToken(path: path)
    }
    let outcome: Timed<EditOutcome>
    do {
      outcome = try await createPage(write, path: path, session: session, once: once)
    } catch {
      if let nonce { onceTokens.release(nonce) }
      throw error
    }
    if let nonce {
      if case .saved(let location) = outcome.value {
        onceTokens.finish(nonce, path: location)
      } else {
        onceTokens.release(nonce)
      }
    }
    return response(outcome, path: path, done: "saved", json: write.json)
  }

  /// The new object's form, or its save, on a pooled connection.
  private func createPage(
    _ write: WriteRequest, path: String, session: WebSession?, once: String
  ) async throws -> Timed<EditOutcome> {
    try await withWriter(write, session: session, verb: "add rows") { scope in
      let (application, names, entity) = (scope.application, scope.names, scope.entity)
      var request = scope.request("edit")
      let editing: EditingSession
      do {
        editing = try EditingSession.new(
          entity.name, in: try application.context(for: request),
          formatters: application.formatters)
      } catch is PermissionError {
        throw WebError(.forbidden, "you may not add \(entity.name) rows")
      } catch let failure as DatabaseError where failure.code == .readOnly {
        throw WebError(.forbidden, "\(entity.name) cannot have new rows")
      }
      request.object = editing.object
      var form = WebForm(
        action: path, csrf: scope.links.csrf ?? "", cancel: WebLinks.entityPath(entity.name))
      form.once = once
      var editable = try Self.editableKeys(
        editing, page: request, application: application, reaches: names.reaches)
      let hiddenKeys = Set(
        entity.relationships.filter { !$0.isToMany && !names.isReachable($0.destinationName) }
          .flatMap { $0.joins.map(\.source) })
      for attribute in entity.primaryKeyAttributes
      where !attribute.isAutoIncrement && !attribute.isRowID && !attribute.isGenerated
        && attribute.valueType != .data && !editable.contains(attribute.name)
        && !hiddenKeys.contains(attribute.name)
      {
        var context = editing.context
        context.propertyKey = attribute.name
        form.keyFields.append((attribute.name, context.displayNameForProperty))
        editable.insert(attribute.name)
      }
      scope.links.editable = editable
      scope.links.breadcrumb = WebLinks.trail(to: entity, context: editing.context)
      scope.links.continues = true
      form.widgets = try FieldWidgets.widgets(
        for: editable, editing: editing,
        choose: WebLinks.entityPath(entity.name) + "/-/choose/")
      if let post = write.post {
        let fields = try PostedField.fields(
          post, editable: editable, widgets: form.widgets,
          nullable: { Self.allowsNull($0, in: entity) })
        for field in fields where field.isNull && !Self.allowsNull(field.key, in: entity) {
          throw WebError(.badRequest, "\(field.key) cannot be NULL")
        }
        if try Self.apply(fields, to: editing, form: &form, names: names) {
          guard
            let saved = WebLinks.objectPath(entity.name, key: editing.object.primaryKeyValues)
          else { return .saved(WebLinks.entityPath(entity.name)) }
          // "Save and continue editing" goes on in the new object's edit form.
          return .saved(post.contains { $0.0 == "_continue" } ? saved + "/-/edit" : saved)
        }
      } else {
        Self.prefill(&form, from: write.query, editable: editable)
      }
      scope.links.form = form
      let html = try Self.renderPage(
        request, application: application, links: scope.links,
        format: write.json ? .json : .html)
      if write.post == nil { return .page(html) }
      return form.isBusy ? .busy(html) : .invalid(html)
    }
  }

  /// A signed one-time token for the form at `path`: `once|expiry|nonce|path`.
  func newOnceToken(path: String) -> String {
    @Dependency(\.clock) var clock
    let expiry = Int(clock.now.timeIntervalSince1970 + OnceTokens.lifetime)
    return keys.sign("once|\(expiry)|\(SessionKeys.nonce())|\(path)")
  }

  /// The nonce and expiry of a one-time token this server signed for `path`, unexpired.
  func onceToken(_ token: String, path: String) -> (String, Date)? {
    guard let payload = keys.verify(token) else { return nil }
    let parts = payload.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "once", parts[3] == path,
      let seconds = TimeInterval(parts[1]),
      seconds > DependencyValues.current.clock.now.timeIntervalSince1970
    else { return nil }
    return (String(parts[2]), Date(timeIntervalSince1970: seconds))
  }
}
