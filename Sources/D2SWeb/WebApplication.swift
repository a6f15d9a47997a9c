import Components
import D2SModel
import Logging
import Qualifiers
import RuleCore
import Synchronization

/// The web front end's pages: a URL becomes a ``PageRequest``, the same page function as
/// the REPL's makes the page, and the HTML renderer (or the JSON one) writes it. Safe to call
/// from many requests at once; each reads through a pooled connection of its own.
public final class WebApplication: Sendable {
  /// What the server is configured with.
  public struct Configuration: Sendable {
    /// The host names a request's `Host` may give (besides `localhost`, `127.0.0.1`, `::1`).
    public var allowedHosts: Set<String>
    /// Rows in a list page without `limit=`.
    public var defaultLimit: Int
    /// The most rows `limit=` may ask for.
    public var maximumLimit: Int
    /// The longest request target (path and query) accepted, in bytes.
    public var maximumTargetLength: Int

    /// A configuration.
    public init(
      allowedHosts: Set<String> = [], defaultLimit: Int = 50, maximumLimit: Int = 1_000,
      maximumTargetLength: Int = 16 * 1024
    ) {
      self.allowedHosts = allowedHosts
      self.defaultLimit = defaultLimit
      self.maximumLimit = maximumLimit
      self.maximumTargetLength = maximumTargetLength
    }
  }

  private let pages: Mutex<PageApplication>
  /// The pooled connections pages read through.
  public let pool: DatabasePool
  /// The configuration.
  public let configuration: Configuration
  /// The database's name, in every page's header.
  public let databaseName: String
  private let logger: Logger

  /// An application rendering `pages`, reading through `pool`.
  public init(
    pages: PageApplication, pool: DatabasePool, databaseName: String,
    configuration: Configuration = Configuration(),
    logger: Logger = Logger(label: "d2s-serve")
  ) {
    self.pages = Mutex(pages)
    self.pool = pool
    self.databaseName = databaseName
    self.configuration = configuration
    self.logger = logger
  }

  /// The pages as they are now.
  public var pageApplication: PageApplication { pages.withLock { $0 } }

  /// Replaces the rules and registries pages are made with (`--watch`), at once: a request
  /// renders wholly with the old or wholly with the new.
  public func replace(_ application: PageApplication) { pages.withLock { $0 = application } }

  /// The response to `request`: a page, or an error page in the same look; never SQL, a
  /// stack trace or a file path (those go to the log). Every response carries the security
  /// headers.
  public func respond(to request: WebRequest) async -> WebResponse {
    var response: WebResponse
    do {
      response = try await page(for: request)
    } catch {
      response = errorPage(for: error, json: request.wantsJSON)
    }
    response.headers += WebResponse.securityHeaders
    if request.method == "HEAD" { response.body = "" }
    return response
  }

  private func page(for request: WebRequest) async throws -> WebResponse {
    guard let host = request.hostName, isAllowed(host) else {
      throw WebError(.badRequest, "unknown host (start d2s-serve with --allow-host NAME)")
    }
    guard request.method == "GET" || request.method == "HEAD" else {
      throw WebError(.methodNotAllowed, "\(request.method) is not allowed here")
    }
    guard request.path.utf8.count + request.query.utf8.count <= configuration.maximumTargetLength
    else { throw WebError(.uriTooLong, "the address is longer than 16 KB") }
    guard let parameters = HTML.queryParameters(Substring(request.query)) else {
      throw WebError(.badRequest, "the query string is not valid percent-encoded UTF-8")
    }
    var segments = request.path.split(separator: "/", omittingEmptySubsequences: false)
      .dropFirst()
    if segments.count > 1, segments.last == "" { segments.removeLast() }
    if segments.first == "-" { return try await serverRoute(Array(segments.dropFirst())) }
    let route = try WebRoute(segments: Array(segments))
    let json = request.wantsJSON
    let application = pageApplication
    let configuration = configuration
    let databaseName = databaseName
    let text = try await pool.withDatabase { database in
      try Self.render(
        route, parameters: parameters, json: json, path: request.path,
        application: application, database: database, databaseName: databaseName,
        configuration: configuration)
    }
    return WebResponse(
      contentType: json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
      headers: [("Vary", "Accept"), ("Cache-Control", "no-store")], body: text)
  }

  private func isAllowed(_ host: String) -> Bool {
    ["localhost", "127.0.0.1", "::1"].contains(host) || configuration.allowedHosts.contains(host)
  }

  /// `/-/…`: the stylesheet and the health check.
  private func serverRoute(_ segments: [Substring]) async throws -> WebResponse {
    switch segments {
    case ["static", "d2s.css"]:
      return WebResponse(
        contentType: "text/css; charset=utf-8", headers: [("Cache-Control", "max-age=3600")],
        body: Stylesheet.text)
    case ["health"]:
      try await pool.withDatabase { database in
        try database.adaptor.query(SQLStatement("SELECT 1"), columns: [nil]) { _ in }
      }
      return WebResponse(contentType: "text/plain; charset=utf-8", body: "ok\n")
    default:
      throw WebError(.notFound, "no page here")
    }
  }

  /// Makes and renders the page of `route`, on a pooled connection's thread.
  static func render(
    _ route: WebRoute, parameters: [(String, String)], json: Bool, path: String,
    application: PageApplication, database: Database, databaseName: String,
    configuration: Configuration
  ) throws -> String {
    var base = application.base
    base.database = database
    // Names resolve as the page's own rules see them (a rule may hide for one platform).
    base.platform = json ? "json" : "html"
    let names = WebNames(context: base)
    var request = PageRequest(platform: json ? "json" : "html", width: nil)
    request.database = database
    var links = WebLinks(
      databaseName: databaseName, model: database.model, visibleEntities: names.visible)
    switch route {
    case .entities:
      request.task = "query"
    case .entity(let name):
      let entity = try names.entity(name)
      request.task = "list"
      request.entityName = entity.name
      links.entity = entity
      let list = try WebListParameters(
        parameters, entity: entity, names: names, configuration: configuration)
      let window = try list.request(database: database, auxiliary: nil)
      request.list = window.list
      links.list = list.query(path: path, window: window)
    case .object(let name, let key):
      let entity = try names.entity(name)
      let object = try fetch(entity, key: try names.key(key, of: entity), from: database)
      request.task = "inspect"
      request.entityName = entity.name
      request.object = object
      links.entity = entity
      links.objectKey = object.primaryKeyValues
    case .related(let name, let key, let relationshipName):
      let entity = try names.entity(name)
      let object = try fetch(entity, key: try names.key(key, of: entity), from: database)
      let property = try? names.property(relationshipName, of: entity)
      guard let property, let relationship = entity.relationship(named: property) else {
        throw WebError(.notFound, "\(entity.name) has no relationship \(relationshipName)")
      }
      let destination = try names.entity(relationship.destinationName)
      links.entity = destination
      request.entityName = destination.name
      if relationship.isToMany {
        let auxiliary = try database.qualifier(for: relationship, of: object)
        request.task = "list"
        request.auxiliaryQualifier = auxiliary
        let list = try WebListParameters(
          parameters, entity: destination, names: names, configuration: configuration)
        let window = try list.request(database: database, auxiliary: auxiliary)
        request.list = window.list
        links.list = list.query(path: path, window: window)
      } else {
        guard let target = try object.related(property) else {
          throw WebError(
            .notFound, "\(entity.name) \(object.primaryKeyDescription) has no \(property)")
        }
        request.task = "inspect"
        request.object = target
        links.objectKey = target.primaryKeyValues
      }
    }
    let context = try application.context(for: request)
    let environment = application.environment(for: request)
    let (text, errors) = try context.engine.collectingReadErrors { () throws -> String in
      let output = StringOutput()
      let visibility = WebVisibility(
        model: database.model, visible: names.visible, entity: links.entity)
      let node = visibility.filter(try environment.pageNode(context))
      if json {
        try JSONRenderer().render(node, to: output)
      } else {
        try HTMLRenderer(links: links).render(node, to: output)
      }
      return output.text
    }
    if let first = errors.first { throw first }
    return text
  }

  private static func fetch(_ entity: Entity, key: [DatabaseValue], from database: Database)
    throws -> DatabaseObject
  {
    guard let object = try database.fetchObject(entity.name, primaryKey: key) else {
      throw WebError(
        .notFound,
        "no \(entity.name) with key \(key.map(WebLinks.keyText).joined(separator: ","))")
    }
    return object
  }

  /// An error as a page (or a JSON object): the status and a message safe to show; the
  /// details go to the log.
  public func errorPage(for error: any Error, json: Bool = false) -> WebResponse {
    let failure = Self.webError(for: error)
    if failure.status.rawValue >= 500 {
      logger.error("\(failure.status.rawValue): \(String(describing: error))")
    }
    let body: String
    if json {
      var fields = [("error", JSONText.string(failure.message))]
      if let column = failure.column { fields.append(("column", "\(column)")) }
      body = JSONText.object(fields) + "\n"
    } else {
      let output = StringOutput()
      HTMLRenderer.writeHead(title: failure.status.title, databaseName: databaseName, to: output)
      output.write("<h1>\(HTML.escape(failure.status.title))</h1>\n")
      output.write("<p class=\"error\">\(HTML.escape(failure.message))</p>\n")
      if let column = failure.column {
        output.write("<p class=\"hint\">at column \(column)</p>\n")
      }
      output.write("<p><a href=\"/\">All entities</a></p>\n")
      HTMLRenderer.writeTail(to: output)
      body = output.text
    }
    return WebResponse(
      status: failure.status.rawValue,
      contentType: json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
      headers: [("Vary", "Accept"), ("Cache-Control", "no-store")], body: body)
  }

  /// What an error shows: its own words for request errors, a fixed sentence for the rest.
  static func webError(for error: any Error) -> WebError {
    switch error {
    case let failure as WebError: return failure
    case let parse as ParseError:
      return WebError(.badRequest, parse.message, column: parse.location.column)
    case let failure as DatabaseError:
      // PostgreSQL's class 22, data exceptions: a value the request gave does not fit.
      if failure.sqlState?.hasPrefix("22") == true {
        return WebError(.badRequest, "a value in the request is not valid")
      }
      switch failure.code {
      case .connection, .outcomeUnknown:
        return WebError(.unavailable, "the database cannot be reached")
      case .locked: return WebError(.unavailable, "the database is busy; try again")
      case .interrupted:
        return WebError(.unavailable, "the page took longer than the server allows")
      case .invalidValue: return WebError(.badRequest, "a value in the request is not valid")
      case .unsupported:
        return WebError(.badRequest, "the filter or order asks for what the database cannot do")
      default: return WebError(.internalError, "the page could not be made")
      }
    default:
      return WebError(.internalError, "the page could not be made")
    }
  }
}

/// What a page URL names.
enum WebRoute {
  /// `/`.
  case entities
  /// `/ENTITY`.
  case entity(String)
  /// `/ENTITY/KEY` (the key still percent-encoded: its parts are split at commas first).
  case object(String, Substring)
  /// `/ENTITY/KEY/REL`.
  case related(String, Substring, String)

  init(segments: [Substring]) throws {
    func name(_ segment: Substring) throws -> String {
      guard let name = HTML.percentDecoded(segment), !name.isEmpty else {
        throw WebError(.notFound, "no page here")
      }
      return name
    }
    switch segments.count {
    case 0: self = .entities
    case 1 where segments[0].isEmpty: self = .entities
    case 1: self = .entity(try name(segments[0]))
    case 2: self = .object(try name(segments[0]), segments[1])
    case 3: self = .related(try name(segments[0]), segments[1], try name(segments[2]))
    default: throw WebError(.notFound, "no page here")
    }
  }
}
