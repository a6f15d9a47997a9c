import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import HTTPTypes
import Hummingbird
import Logging
import PostgreSQLAdaptor
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
    /// Whether every write is refused (`--read-only`): no edit forms, 403 for a POST.
    public var readOnly: Bool
    /// Whether cookies are `Secure` (`--https-only`).
    public var httpsOnly: Bool
    /// Whether responses carry a `Server-Timing` header (`--timing`).
    public var timing: Bool
    /// How long a connection may send nothing complete (a request head trickled byte by
    /// byte, or nothing at all) before it is closed (`--request-timeout`).
    public var requestTimeout: Duration
    /// The most bytes of rendered anonymous pages kept for reuse while the database is
    /// unchanged (`--page-cache`, in MB; 0 keeps none).
    public var pageCacheBytes: Int
    /// How long a kept page may be reused at most, however unchanged the database (what no
    /// content version tracks, such as a count that ran out of time, is then made anew).
    public var pageCacheLifetime: Duration
    /// The most to-many relationships a `where=` or `order=` path may cross (a many-to-many
    /// through its link table counts as one): `--max-to-many-hops`.
    public var maximumToManyHops: Int
    /// How long an anonymous visitor's statements may run; a logged-in user's get the pool's
    /// own timeout (`--statement-timeout`).
    public var anonymousStatementTimeout: Duration
    /// Whether log lines carry their fields as metadata too (`--log-format json`).
    public var structuredLog: Bool
    /// A PostgreSQL URL whose table `d2s.session` keeps the sessions, shared by every server
    /// given it (`--shared-sessions`); nil keeps them in this process's memory.
    public var sharedSessions: String?
    /// The most calls an agent's token makes in a minute on this server
    /// (`--agent-calls-per-minute`).
    public var agentCallsPerMinute: Int

    /// A configuration.
    public init(
      allowedHosts: Set<String> = [], defaultLimit: Int = 50, maximumLimit: Int = 1_000,
      maximumTargetLength: Int = 16 * 1024, readOnly: Bool = false, httpsOnly: Bool = false,
      timing: Bool = false, requestTimeout: Duration = .seconds(30),
      pageCacheBytes: Int = 16 << 20, pageCacheLifetime: Duration = .seconds(1),
      maximumToManyHops: Int = 1, anonymousStatementTimeout: Duration = .seconds(10),
      sharedSessions: String? = nil, structuredLog: Bool = false, agentCallsPerMinute: Int = 600
    ) {
      self.agentCallsPerMinute = agentCallsPerMinute
      self.structuredLog = structuredLog
      self.maximumToManyHops = maximumToManyHops
      self.anonymousStatementTimeout = anonymousStatementTimeout
      self.sharedSessions = sharedSessions
      self.pageCacheBytes = pageCacheBytes
      self.pageCacheLifetime = pageCacheLifetime
      self.timing = timing
      self.requestTimeout = requestTimeout
      self.readOnly = readOnly
      self.httpsOnly = httpsOnly
      self.allowedHosts = allowedHosts
      self.defaultLimit = defaultLimit
      self.maximumLimit = maximumLimit
      self.maximumTargetLength = maximumTargetLength
    }
  }

  private let pages: Mutex<PageApplication>
  /// Each connection's pages, by its database (``pageApplication(for:)``).
  private let pageApplications = Mutex<[ObjectIdentifier: PageApplication]>([:])
  /// A number no other application's pages and no earlier pages of this one had: a pooled
  /// connection's pages kept with another are taken again.
  private let pagesStamp = Atomic(WebApplication.pagesStamps.add(1, ordering: .relaxed).newValue)
  private static let pagesStamps = Atomic(0)
  /// The pooled connections pages read through.
  public let pool: DatabasePool
  /// The configuration.
  public let configuration: Configuration
  /// The database's name, in every page's header.
  public let databaseName: String
  let logger: Logger
  /// The key sessions and CSRF tokens are signed with.
  let keys: SessionKeys
  /// Repeated failed logins, slowed down.
  let throttle = LoginThrottle()
  /// The one-time tokens of new-object forms already sent.
  let onceTokens = OnceTokens()
  /// Anonymous pages already rendered, for as long as the database is unchanged.
  let pageCache: PageCache
  /// Where sessions are kept (in memory, or shared in PostgreSQL).
  let sessions: any SessionStore
  /// The agents' bearer tokens (`/-/tokens`, `/-/mcp`), kept where sessions are.
  let agentTokens: any AgentTokenStore
  /// How many calls each token made this minute, on this server.
  let agentCalls: CallLimiter
  /// The agents' proposals waiting for a person (`/-/proposals/ID`), kept where sessions are.
  let proposals: any ProposalStore
  private let assistantBox = Mutex<RuleAssistant?>(nil)
  /// The rule assistant (`--rules-output FILE`), or nil: no rule is changed from a page.
  var assistant: RuleAssistant? {
    get { assistantBox.withLock { $0 } }
    set { assistantBox.withLock { $0 = newValue } }
  }
  /// What the application sets for every request (a test's clock), over the dependencies of
  /// the scope it responds in; pages derive theirs from them.
  public let dependencies: DependencyValues
  /// The router's responder (``makeRouter()``), made once the application is.
  private let routing = Mutex<RouterResponder<WebRequestContext>?>(nil)

  /// An application rendering `pages`, reading through `pool`, signing sessions with `keys`.
  public init(
    pages: PageApplication, pool: DatabasePool, databaseName: String,
    configuration: Configuration = Configuration(), keys: SessionKeys = .random(),
    logger: Logger = Logger(label: "d2s-serve"), dependencies: DependencyValues = DependencyValues()
  ) {
    if let url = configuration.sharedSessions {
      sessions = PostgreSQLSessionStore(
        pool: DatabasePool(
          size: 2, statementTimeout: .seconds(10), model: Model(entities: []),
          open: { try PostgreSQLAdaptor(url: url) }))
      agentTokens = PostgreSQLAgentTokenStore(url: url)
      proposals = PostgreSQLProposalStore(url: url)
    } else {
      sessions = MemorySessionStore()
      agentTokens = MemoryAgentTokenStore()
      proposals = MemoryProposalStore()
    }
    agentCalls = CallLimiter(callsPerMinute: configuration.agentCallsPerMinute)
    self.dependencies = dependencies
    self.keys = keys
    self.pageCache = PageCache(
      capacity: configuration.pageCacheBytes, lifetime: configuration.pageCacheLifetime)
    self.pages = Mutex(pages)
    self.pool = pool
    self.databaseName = databaseName
    self.configuration = configuration
    self.logger = logger
    let responder = makeRouter().buildResponder()
    routing.withLock { $0 = responder }
  }

  /// What answers every request: the router, behind its middleware.
  var responder: RouterResponder<WebRequestContext> {
    routing.withLock { $0 } ?? makeRouter().buildResponder()
  }

  /// The pages as they are now.
  public var pageApplication: PageApplication { pages.withLock { $0 } }

  /// Replaces the rules and registries pages are made with (`--watch`), at once: a request
  /// renders wholly with the old or wholly with the new.
  public func replace(_ application: PageApplication) {
    pages.withLock { pages in
      pageApplications.withLock { $0.removeAll() }
      pageCache.clear()
      pages = application
      pagesStamp.store(Self.pagesStamps.add(1, ordering: .relaxed).newValue, ordering: .releasing)
    }
  }

  /// The pages as `database`'s connection renders them: with a rule cache of its own, so that
  /// requests on different connections never wait for each other's rule lookups. A pooled
  /// connection keeps them itself (``Reader/keptPages``), so that a page takes no lock every
  /// connection's pages take.
  func pageApplication(for database: Database) -> PageApplication {
    guard let reader = Reader.current, reader.database === database else {
      return sharedPageApplication(for: database)
    }
    let stamp = pagesStamp.load(ordering: .acquiring)
    if let kept = reader.keptPages.withLock({ $0 }), kept.stamp == stamp { return kept.pages }
    let pages = sharedPageApplication(for: database)
    reader.keptPages.withLock { $0 = Reader.KeptPages(stamp: stamp, pages: pages) }
    return pages
  }

  /// The pages of `database`'s connection, found (or made) among every connection's, under the
  /// application's lock.
  private func sharedPageApplication(for database: Database) -> PageApplication {
    pages.withLock { pages in
      pageApplications.withLock { own in
        let id = ObjectIdentifier(database)
        if let application = own[id] { return application }
        // Connections replaced after a failure leave entries behind: start over now and then.
        if own.count >= 4 * pool.size { own.removeAll() }
        let application = pages.withOwnRuleCache(maximumAnswersPerKey: 4_096)
        own[id] = application
        return application
      }
    }
  }

  /// Logs a request's line: method, target (its parameters' names, never their values),
  /// status, bytes, time and client; the fields as metadata too for `--log-format json`.
  func log(
    method: String, path: String, query: String, status: Int, bytes: Int,
    started: ContinuousClock.Instant, client: String
  ) {
    let milliseconds = Self.loggedMilliseconds(started.duration(to: .now))
    let target = Self.loggedTarget(WebRequest(method: method, path: path, query: query))
    logger.notice(
      "\(method) \(target) \(status) \(bytes) B \(milliseconds) ms \(client)",
      metadata: configuration.structuredLog
        ? [
          "method": "\(method)", "target": "\(target)", "status": "\(status)",
          "bytes": "\(bytes)", "ms": "\(milliseconds)", "client": "\(client)",
        ] : nil)
  }

  /// The whole seconds a client is told to wait for `wait` (`Retry-After`): rounded up, so
  /// that one that obeys comes back late enough; 1 at least.
  static func retryAfterSeconds(_ wait: Duration) -> Int {
    let (seconds, attoseconds) = wait.components
    return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
  }

  /// A request's time as the log shows it: milliseconds, to a tenth.
  static func loggedMilliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1e4 + Double(attoseconds) / 1e14).rounded() / 10
  }

  /// A user name as the log shows it: quoted, control characters escaped, at most 64
  /// characters (a failed login's name is whatever was typed).
  static func loggedName(_ name: String) -> String {
    let shown = name.prefix(64).unicodeScalars.map { scalar in
      scalar.value < 0x20 || scalar.value == 0x7f || scalar == "\"" || scalar == "\\"
        ? scalar.escaped(asASCII: true) : String(scalar)
    }.joined()
    return "\"" + shown + (name.count > 64 ? "…" : "") + "\""
  }

  /// The request's path and the names of its query's parameters, never their values (a
  /// filter can name what a user looks for): `/Film?where=…&limit=…`.
  static func loggedTarget(_ request: WebRequest) -> String {
    guard !request.query.isEmpty else { return request.path }
    // One pass over the bytes: a value is everything from `=` to the next `&`.
    var out = Array(request.path.utf8)
    out.append(UInt8(ascii: "?"))
    var inValue = false
    for byte in request.query.utf8 {
      if byte == UInt8(ascii: "&") {
        inValue = false
        out.append(byte)
      } else if !inValue {
        if byte == UInt8(ascii: "=") {
          inValue = true
          out += "=…".utf8
        } else {
          out.append(byte)
        }
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Throws what a request must not be: for another host, by a method the server does not
  /// know, with a target or headers over the limits, or a query that does not decode.
  func check(_ request: WebRequest) throws {
    guard let host = request.hostName, isAllowed(host) else {
      throw WebError(.badRequest, "unknown host (start d2s-serve with --allow-host NAME)")
    }
    guard ["GET", "HEAD", "POST"].contains(request.method) else {
      throw WebError(
        .methodNotAllowed, "\(request.method) is not allowed here",
        allow: Self.allowedMethods(request.path))
    }
    guard request.path.utf8.count + request.query.utf8.count <= configuration.maximumTargetLength
    else {
      throw WebError(
        .uriTooLong, "the address is longer than \(configuration.maximumTargetLength / 1024) KB")
    }
    guard request.headerBytes <= configuration.maximumTargetLength else {
      throw WebError(
        .headersTooLarge,
        "the request's headers are longer than \(configuration.maximumTargetLength / 1024) KB")
    }
    guard request.decodedParameters != nil || HTML.queryParameters(Substring(request.query)) != nil
    else {
      throw WebError(.badRequest, "the query string is not valid percent-encoded UTF-8")
    }
  }

  /// The methods `path` takes, as a 405's `Allow` names them: a form's GET, HEAD and POST;
  /// `/-/rules`, `/-/mcp` and `/-/logout` POST alone; a page GET and HEAD.
  static func allowedMethods(_ path: String) -> String {
    let segments = segments(of: path)
    if segments.first == "-" {
      switch segments.dropFirst().first {
      case "rules", "mcp", "logout": return "POST"
      case "login", "tokens", "proposals": return "GET, HEAD, POST"
      default: return "GET, HEAD"
      }
    }
    if let dash = segments.firstIndex(of: "-"), dash + 1 < segments.count,
      ["new", "edit", "delete", "links"].contains(segments[dash + 1])
    {
      return "GET, HEAD, POST"
    }
    return "GET, HEAD"
  }

  /// The session `request`'s cookie names, when the server keeps it.
  func session(of request: WebRequest) async throws -> WebSession? {
    try await WebSession.find(request, keys: keys, store: sessions)
  }

  /// The path's segments, still percent-encoded (a trailing slash ignored).
  static func segments(of path: String) -> [Substring] {
    // Split by bytes: `/` is ASCII, and splitting by `Character`s broke graphemes first.
    var segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      .dropFirst().map { Substring($0) }
    if segments.count > 1, segments.last == "" { segments.removeLast() }
    return segments
  }

  /// What a form route does.
  enum WriteRoute {
    /// `/ENTITY/-/new`.
    case create
    /// `/ENTITY/KEY/-/edit`.
    case edit
    /// `/ENTITY/KEY/-/delete`.
    case delete
    /// `/ENTITY/KEY/-/links/REL`.
    case links
  }

  /// A form route's page or save, for a session that may write.
  func write(_ route: WriteRoute, _ request: WebRequest, session: WebSession?, verb: String)
    async throws -> WebResponse
  {
    let segments = Self.segments(of: request.path)
    return try await writing(request, segments: segments, session: session, verb: verb) {
      switch route {
      case .create: try await self.create(request, $0, segments: segments, session: session)
      case .edit: try await self.edit(request, $0, segments: segments, session: session)
      case .delete: try await self.delete(request, $0, segments: segments, session: session)
      case .links: try await self.links(request, $0, segments: segments, session: session)
      }
    }
  }

  /// The choose page of a to-one (`/ENTITY/KEY/-/choose/REL`, `/ENTITY/-/choose/REL`).
  func choose(_ request: WebRequest, session: WebSession?) async throws -> WebResponse {
    let segments = Self.segments(of: request.path)
    guard let relationship = segments.last, segments.count == 4 || segments.count == 5 else {
      throw WebError(.notFound, "no page here")
    }
    return try await choose(
      request, entity: segments[0], key: segments.count == 5 ? segments[1] : nil,
      relationship: relationship, session: session)
  }

  /// `/-/health`: `ok` when a database connection can be had.
  func health(_ request: WebRequest) async throws -> WebResponse {
    try await pool.withDatabase(client: request.clientAddress) { database in
      try database.adaptor.query(SQLStatement(raw: "SELECT 1"), columns: [nil]) { _ in }
    }
    return WebResponse(contentType: "text/plain; charset=utf-8", body: "ok\n")
  }

  /// The most rows a list page is sent whole with; a longer one (`limit=` above it) is
  /// streamed as it is rendered.
  static let streamedRows = 200

  /// A page as Hummingbird sends it: a list of more than ``streamedRows`` rows, or any CSV,
  /// streamed as it is rendered (never kept in the page cache), any other page whole.
  func pageResponse(_ request: WebRequest, session: WebSession?) async throws -> Response {
    let format = try request.format
    let limit = request.parameters.last { $0.0 == "limit" }.flatMap { Int($0.1) }
    // A CSV download is the whole list: always streamed; a page with facets asked for is
    // streamed so that its list arrives before the facets are counted.
    let csv = format.csvOptions != nil
    let long =
      csv || limit.map { $0 > Self.streamedRows } == true
      || (format == .html && request.parameters.contains { $0.0 == "facet" })
    // A download's head says what it is without reading it (its length is not known before).
    if csv, request.method == "HEAD" {
      let route = try WebRoute(segments: Self.segments(of: request.path))
      var fields = HTTPFields()
      fields[.contentType] = route.contentType(format)
      for (name, value) in route.download(format) + [("Cache-Control", "no-store")] {
        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
      }
      return Response(status: .ok, headers: fields, body: ResponseBody())
    }
    // A download is streamed even with --timing (which it then goes without).
    guard request.method == "GET", !configuration.timing || csv, long else {
      return try await page(request, format: format, session: session)
        .response(head: request.method == "HEAD")
    }
    return try await streamedPage(request, format: format, session: session)
  }

  /// A page written to the client as it is rendered, 64 KB at a time (``ChunkedOutput``); a
  /// page that fails before its first chunk is an error page, one that fails later ends
  /// where it is (and the failure is logged).
  private func streamedPage(_ request: WebRequest, format: WebFormat, session: WebSession?)
    async throws -> Response
  {
    let parameters = request.parameters
    let route = try WebRoute(segments: Self.segments(of: request.path))
    let (configuration, databaseName, keys, logger) = (configuration, databaseName, keys, logger)
    let timeout =
      session == nil ? min(configuration.anonymousStatementTimeout, pool.statementTimeout) : nil
    let (chunks, continuation) = AsyncStream<ByteBuffer>.makeStream()
    let made = Mutex<ChunkedOutput?>(nil)
    let start = await withCheckedContinuation { (resume: CheckedContinuation<StreamStart, Never>) in
      let once = ResumeOnce(resume)
      let output = ChunkedOutput(
        begin: { once.resume($0) }, chunks: continuation, patience: configuration.requestTimeout)
      made.withLock { $0 = output }
      Task {
        do {
          _ = try await timed(client: request.clientAddress, timeout: timeout) {
            application, database in
            var links = WebLinks(databaseName: databaseName, model: database.model)
            let user = try Self.user(
              session, in: database, keys: keys, links: &links, base: application.base)
            try Self.render(
              route, parameters: parameters, format: format, path: request.path,
              application: application, database: database, links: links, user: user,
              configuration: configuration, to: output)
            // Not finished as whole when a relationship it read could not be answered.
            try database.throwFailedRead()
            output.finish()
          }
        } catch {
          // An error before the first chunk is the response; after it, only the log says.
          if output.fail(error) { logger.error("\(request.path): the page stopped: \(error)") }
        }
      }
    }
    let headers = [("Vary", "Accept"), ("Cache-Control", "no-store")] + route.download(format)
    switch start {
    case .whole(let bytes):
      return WebResponse(contentType: route.contentType(format), headers: headers, bytes: bytes)
        .response(head: false)
    case .failed(let error):
      throw error
    case .streaming(let first):
      guard let output = made.withLock({ $0 }) else { throw WebError(.internalError, "no page") }
      var fields = HTTPFields()
      fields[.contentType] = route.contentType(format)
      for (name, value) in headers {
        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
      }
      return Response(
        status: .ok, headers: fields,
        body: ResponseBody { writer in
          do {
            try await writer.write(first)
            output.chunkWritten()
            for await chunk in chunks {
              try await writer.write(chunk)
              output.chunkWritten()
            }
            // A page that stopped part way is no whole page: the client must see it broken.
            if output.wasCutShort { throw WebError(.internalError, "the page stopped part way") }
            try await writer.finish(nil)
          } catch {
            output.abandon()
            throw error
          }
        })
    }
  }

  /// A page in `format` (the request's, read once by its caller): the entity list, a list, an
  /// object or a relationship followed.
  func page(_ request: WebRequest, format: WebFormat, session: WebSession?) async throws
    -> WebResponse
  {
    let parameters = request.parameters
    let route = try WebRoute(segments: Self.segments(of: request.path))
    // An anonymous visitor's page is every anonymous visitor's: it may come from the cache.
    let cache =
      session == nil && !configuration.timing && pageCache.isEnabled && format.csvOptions == nil
      ? pageCache : nil
    // Read before the rules are: a page made with rules replaced since is not kept.
    let generation = cache?.generation ?? 0
    // An anonymous visitor's statements get the shorter budget.
    let timeout =
      session == nil ? min(configuration.anonymousStatementTimeout, pool.statementTimeout) : nil
    // The one-time message of a page a save led to (never on a cached, anonymous page).
    let notice =
      session != nil && format == .html
      ? SavedNotice.notice(request, secure: configuration.httpsOnly) : nil
    let text: Timed<ByteBuffer>
    do {
      text = try await timedPage(
        request, route: route, parameters: parameters, format: format, session: session,
        cache: cache, generation: generation, timeout: timeout, notice: notice?.0)
    } catch let failure as RenderedFailure {
      return WebResponse(
        status: failure.status, contentType: "text/html; charset=utf-8",
        headers: [("Vary", "Accept"), ("Cache-Control", "no-store")], body: failure.page)
    }
    var headers = [("Vary", "Accept"), ("Cache-Control", "no-store")] + route.download(format)
    if let timing = text.timing { headers.append(("Server-Timing", timing)) }
    if let clear = notice?.1 { headers.append(clear) }
    return WebResponse(contentType: route.contentType(format), headers: headers, bytes: text.value)
  }

  /// Throws a 400 in the filter's own words when `filter`'s values do not fit their columns
  /// or its operators do not apply to them (`length >= 1.5`: "cannot use a decimal 1.5 for
  /// length"), found by building its SQL, before any page is made of it.
  static func checkFilter(_ filter: Qualifier, of entity: Entity, in database: Database) throws {
    do {
      try database.check(filter, of: entity.name)
    } catch let failure as DatabaseError where [.invalidValue, .unsupported].contains(failure.code)
    {
      throw WebError(.badRequest, "where: " + failure.message)
    }
  }

  /// The page of `route` on a pooled connection: from the cache, or made (and kept, for an
  /// anonymous visitor).
  private func timedPage(
    _ request: WebRequest, route: WebRoute, parameters: [(String, String)], format: WebFormat,
    session: WebSession?, cache: PageCache?, generation: Int, timeout: Duration?,
    notice: String? = nil
  ) async throws -> Timed<ByteBuffer> {
    let configuration = configuration
    let databaseName = databaseName
    let keys = keys
    let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
    return try await timed(client: request.clientAddress, timeout: timeout) {
      application, database in
      let version = cache == nil ? nil : try database.adaptor.contentVersion()
      let key = PageCache.Key(
        target: target, json: format.isJSON, connection: ObjectIdentifier(database))
      if let cache, let version,
        let page = cache.page(key, database: database, version: version)
      {
        return page
      }
      var links = WebLinks(databaseName: databaseName, model: database.model)
      links.notice = notice
      // The page's statements in one read transaction: one snapshot, one lock. (A page from
      // the cache reads its version alone; a streamed page, which may wait on its client,
      // has none: writers would wait as long.)
      let page = try database.adaptor.reading {
        let user = try Self.user(
          session, in: database, keys: keys, links: &links, base: application.base)
        return try Self.render(
          route, parameters: parameters, format: format, path: request.path,
          application: application, database: database, links: links, user: user,
          configuration: configuration)
      }
      // Not kept, nor sent, when a relationship the page read could not be answered.
      try database.throwFailedRead()
      if let cache, let version {
        cache.store(
          page, for: key, database: database, version: version, generation: generation)
      }
      return page
    }
  }

  /// `body` on a pooled connection with that connection's pages; with `--timing`, what it
  /// cost as a `Server-Timing` value (its statements, rule look-ups and render time).
  func timed<T: Sendable>(
    client: String, timeout: Duration? = nil,
    _ body: @escaping @Sendable (PageApplication, Database) throws -> T
  ) async throws -> Timed<T> {
    let timing = configuration.timing
    return try await pool.withDatabase(client: client, timeout: timeout) { [self] database in
      let application = pageApplication(for: database)
      guard timing else { return Timed(value: try body(application, database), timing: nil) }
      let measurement = CommandMeasurement(engine: application.base.engine)
      let value: T
      do {
        value = try body(application, database)
      } catch {
        _ = measurement.stop()
        throw error
      }
      return Timed(value: value, timing: measurement.stop().serverTiming)
    }
  }

  private func isAllowed(_ host: String) -> Bool {
    ["localhost", "127.0.0.1", "::1"].contains(host) || configuration.allowedHosts.contains(host)
  }

  /// The logged-in user of `session`, read through `database`; sets the header's name and the
  /// session's CSRF token in `links`. Nil for an anonymous visitor (or a user since deleted).
  ///
  /// On a pooled connection whose database is unchanged since an earlier request of the same
  /// session, the user read then is reused, with its title and tokens (``KeptUsers``).
  static func user(
    _ session: WebSession?, in database: Database, keys: SessionKeys, links: inout WebLinks,
    base: RuleContext
  ) throws -> DatabaseObject? {
    guard let session, session.database == links.databaseName,
      let entity = database.model.entity(named: session.entity)
    else { return nil }
    // Not taken for anonymous while the columns cannot be read: the page waits for them (503).
    try entity.requireDetails()
    guard case let key = session.key, entity.primaryKeyAttributes.count == key.count else {
      return nil
    }
    let kept = Reader.current.flatMap { $0.database === database ? $0.keptUsers : nil }
    let version = kept == nil ? nil : try database.adaptor.contentVersion()
    if let kept, let version,
      let entry = kept.entry(
        session: session.token, entity: entity.name, key: key, version: version,
        engine: base.engine)
    {
      guard Login.constantTimeEqual(entry.stamp, session.record.stamp) else { return nil }
      links.userName = entry.title
      links.csrf = entry.csrf
      return entry.user
    }
    guard let user = try database.fetchObject(entity.name, primaryKey: key) else {
      return nil
    }
    let stamp = WebSession.stamp(of: user, keys: keys)
    guard Login.constantTimeEqual(stamp, session.record.stamp) else { return nil }
    var context = base
    context.database = database
    context.entity = user.entity
    context.object = user
    links.userName = context.title
    links.csrf = keys.token("csrf", boundTo: session.token)
    if let kept, let version, let title = links.userName, let csrf = links.csrf {
      kept.keep(
        KeptUsers.Entry(
          session: session.token, entity: entity.name, key: key, version: version,
          engine: base.engine.identity, user: user, userVersion: user.ruleCacheVersion,
          stamp: stamp,
          title: title,
          csrf: csrf))
    }
    return user
  }

  /// Makes and renders the page of `route`, on a pooled connection's thread.
  static func render(
    _ route: WebRoute, parameters: [(String, String)], format: WebFormat, path: String,
    application: PageApplication, database: Database, links: WebLinks, user: DatabaseObject?,
    configuration: Configuration
  ) throws -> ByteBuffer {
    let output = ByteBufferOutput()
    do {
      try render(
        route, parameters: parameters, format: format, path: path, application: application,
        database: database, links: links, user: user, configuration: configuration, to: output)
    } catch is FilterFailure {
      throw RenderedFailure(status: 400, page: output.text)
    }
    return output.buffer
  }

  /// A list page was written without the filter it was asked for, the form saying why.
  struct FilterFailure: Error {}

  /// A page made for an error (a 400 list page whose filter could not be used): sent with
  /// its status, never kept in the page cache.
  struct RenderedFailure: Error {
    let status: Int
    let page: String
  }

  /// Makes the page of `route` and writes it to `output` as it is rendered.
  static func render(
    _ route: WebRoute, parameters: [(String, String)], format: WebFormat, path: String,
    application: PageApplication, database: Database, links: WebLinks, user: DatabaseObject?,
    configuration: Configuration, to output: any TextOutput
  ) throws {
    var base = application.base
    base.database = database
    // Names resolve as the page's own rules see them (a rule may hide for one platform).
    base.platform = format.platform
    // And as the page's user sees them: a rule may make an entity unreachable for one user.
    if let user { base.user = user }
    // The page's context starts from the same base: its database, platform and user set once.
    var application = application
    application.base = base
    let names = ModelNames(context: base, policy: .shown)
    var request = PageRequest(user: user, platform: format.platform, width: nil)
    request.database = database
    var links = links
    links.reaches = names.reaches
    // The list of `entity` the query parameters ask for, within `auxiliary`.
    func showList(_ entity: Entity, within auxiliary: Qualifier?) throws {
      // Its columns first: without them every order and filter would name no property.
      try entity.requireDetails()
      request.task = "list"
      request.entityName = entity.name
      request.auxiliaryQualifier = auxiliary
      links.entity = entity
      var filterError: String?
      let list: WebListParameters
      do {
        let parsed = try WebListParameters(
          parameters, entity: entity, names: names, configuration: configuration)
        if let typed = parsed.typedQualifier {
          try Self.checkFilter(typed, of: entity, in: database)
        }
        list = parsed
      } catch {
        // A filter that cannot be used: on a page, the list without it, its text kept in
        // the form with the error beside it (a 400); JSON gets the error alone.
        let others = parameters.filter { $0.0 != "where" }
        guard format == .html, others.count < parameters.count,
          let unfiltered = try? WebListParameters(
            others, entity: entity, names: names, configuration: configuration)
        else { throw error }
        list = unfiltered
        let failure = webError(for: error)
        filterError = failure.message + (failure.column.map { " (at column \($0))" } ?? "")
      }
      let window = try list.request(database: database, auxiliary: auxiliary)
      request.list = window.list
      request.list.facets = list.facetKeys
      // A download is the whole list, unless a window's size is asked for.
      if format.csvOptions != nil, !list.limitGiven { request.list.limit = nil }
      links.list = list.query(path: path, window: window)
      if let filterError {
        links.list?.whereText = parameters.last { $0.0 == "where" }?.1 ?? ""
        links.list?.filterError = filterError
      }
      // Only a column `order=` takes has a header that sorts (not a to-one or a to-many).
      links.sorts = { keys in names.sortable(keys, of: entity) }
    }
    switch route {
    case .entities:
      request.task = "query"
    case .entity(let name):
      let entity = try names.entity(name)
      try showList(entity, within: nil)
      links.breadcrumb = [WebLinks.entityListCrumb]
    case .object(let name, let key):
      let entity = try names.entity(name)
      let object = try fetch(entity, key: try names.key(key, of: entity), from: database)
      links.breadcrumb = WebLinks.trail(to: entity, context: base)
      request.task = "inspect"
      request.entityName = entity.name
      request.object = object
      links.entity = entity
      links.objectKey = object.primaryKeyValues
      if user != nil, !configuration.readOnly,
        (try? EditingSession.edit(object, in: application.context(for: request))) != nil
      {
        links.editPath = WebLinks.objectPath(entity.name, key: object.primaryKeyValues).map {
          $0 + "/-/edit"
        }
      }
      if user != nil, !configuration.readOnly,
        (try? application.context(for: request).isObjectDeletable) == true
      {
        links.deletePath = WebLinks.objectPath(entity.name, key: object.primaryKeyValues).map {
          $0 + "/-/delete"
        }
      }
    case .related(let name, let key, let relationshipName):
      let entity = try names.entity(name)
      let object = try fetch(entity, key: try names.key(key, of: entity), from: database)
      let property = try? names.property(relationshipName, of: entity)
      guard let property, let relationship = entity.relationship(named: property) else {
        throw WebError(.notFound, "\(entity.name) has no relationship \(relationshipName)")
      }
      let destination = try names.entity(relationship.destinationName)
      if relationship.isToMany {
        // A to-many's rows are the object's: the trail leads back through it.
        links.breadcrumb = WebLinks.trail(to: entity, object: object, context: base)
        request.title = base.title(ofRelationship: property, of: object)
        try showList(destination, within: database.qualifier(for: relationship, of: object))
        if relationship.isFlattened, user != nil, !configuration.readOnly {
          var owner = request
          owner.task = "edit"
          owner.entityName = entity.name
          owner.object = object
          if let context = try? application.context(for: owner),
            EditingSession.mayChangeLinks(property, of: object, in: context)
          {
            links.linksPath = WebLinks.objectPath(entity.name, key: object.primaryKeyValues).map {
              $0 + "/-/links/" + HTML.pathSegment(property)
            }
          }
        }
      } else {
        links.entity = destination
        links.breadcrumb = WebLinks.trail(to: destination, context: base)
        request.entityName = destination.name
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
    if context.task == "list", route.isEntityList, user != nil, !configuration.readOnly,
      let entity = links.entity, !entity.isReadOnly, !context.isEntityReadOnly
    {
      links.newPath = WebLinks.entityPath(entity.name) + "/-/new"
    }
    // A list's rows lead where the rules' nextTask says: the edit form for a user who may
    // write, else the inspect page.
    if context.task == "list", context.nextTask == "edit", user != nil, !configuration.readOnly {
      links.rowSuffix = "/-/edit"
    }
    // "why?" beside every label, for a logged-in user a rule lets see explanations.
    if format == .html, user != nil, parameters.contains(where: { $0 == ("explain", "1") }),
      context.mayExplain
    {
      links.explainedPage = path
    }
    try renderPage(
      request, context: context, application: application, links: links, format: format,
      to: output)
    if links.list?.filterError != nil { throw FilterFailure() }
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
    errorPage(for: error, json: json, account: nil)
  }

  /// The user a session is for, as the page header shows them, and the session's CSRF token
  /// (for Log out); nil when the user is gone or cannot be read.
  func account(of session: WebSession, client: String) async -> (user: String, csrf: String)? {
    let (keys, databaseName) = (keys, databaseName)
    let name = try? await pool.withDatabase(client: client) { [self] database in
      var links = WebLinks(databaseName: databaseName, model: database.model)
      let application = pageApplication(for: database)
      guard
        try Self.user(session, in: database, keys: keys, links: &links, base: application.base)
          != nil
      else { return String?.none }
      return links.userName
    }
    guard let name else { return nil }
    return (name, keys.token("csrf", boundTo: session.token))
  }

  /// An error as a page, its header showing `account` when a user is logged in.
  func errorPage(
    for error: any Error, json: Bool = false, account: (user: String, csrf: String)?
  ) -> WebResponse {
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
      HTMLRenderer.writeHead(
        title: failure.status.title, databaseName: databaseName, user: account?.user,
        csrf: account?.csrf, to: output)
      output.write("<h1>\(HTML.escape(failure.status.title))</h1>\n")
      output.write("<p class=\"error\">\(HTML.escape(failure.message))</p>\n")
      if let column = failure.column {
        output.write("<p class=\"hint\">at column \(column)</p>\n")
      }
      if let why = failure.why {
        output.write("<p><a class=\"why\" href=\"\(HTML.escape(why))\">Why not?</a></p>\n")
      }
      output.write("<p><a href=\"/\">All entities</a></p>\n")
      HTMLRenderer.writeTail(to: output)
      body = output.text
    }
    return WebResponse(
      status: failure.status.rawValue,
      contentType: json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
      headers: [("Vary", "Accept"), ("Cache-Control", "no-store")] + failure.headers, body: body)
  }

  /// What an error shows: its own words for request errors, a fixed sentence for the rest.
  static func webError(for error: any Error) -> WebError {
    switch error {
    case let failure as WebError: return failure
    case let parse as ParseError:
      return WebError(.badRequest, parse.message, column: parse.location.column)
    case let name as NameError:
      return WebError(name.kind == .entity ? .notFound : .badRequest, name.message)
    case let failure as DatabaseError:
      // PostgreSQL's class 22, data exceptions: a value the request gave does not fit.
      if failure.sqlState?.hasPrefix("22") == true {
        return WebError(.badRequest, "a value in the request is not valid")
      }
      switch failure.code {
      case .connection, .outcomeUnknown:
        return WebError(.unavailable, "the database cannot be reached")
      case .locked:
        return WebError(.unavailable, "the database is locked by another program; try again")
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

/// A result, and with `--timing` what it cost, as a `Server-Timing` value.
struct Timed<Value: Sendable>: Sendable {
  var value: Value
  var timing: String?
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

  /// The `Content-Type` of the page in `format`: a CSV of an object's page (`label,value`
  /// records) says it has no header line; a list's CSV begins with its columns' names.
  func contentType(_ format: WebFormat) -> String {
    guard case .object = self, format.csvOptions != nil else { return format.contentType }
    return "text/csv; charset=utf-8; header=absent"
  }

  /// The headers that make a page in `format` a download: for CSV, an attachment named
  /// after the page (`Film.csv`, `Film-1-actors.csv`), only letters, digits, `-`, `_` and
  /// `.` kept in the name.
  func download(_ format: WebFormat) -> [(String, String)] {
    guard format.csvOptions != nil else { return [] }
    let parts: [String] =
      switch self {
      case .entities: ["entities"]
      case .entity(let name): [name]
      case .object(let name, let key): [name, HTML.percentDecoded(key) ?? "row"]
      case .related(let name, let key, let relationship):
        [name, HTML.percentDecoded(key) ?? "row", relationship]
      }
    let name = String(
      parts.joined(separator: "-").unicodeScalars.map { scalar in
        scalar.isASCII
          && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "-_.".unicodeScalars.contains(scalar))
          ? Character(scalar) : "_"
      }.prefix(100))
    return [("Content-Disposition", "attachment; filename=\"\(name).csv\"")]
  }

  /// Whether the route is an entity's own list (`/ENTITY`).
  var isEntityList: Bool {
    if case .entity = self { return true }
    return false
  }

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
