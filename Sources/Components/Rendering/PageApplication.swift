import D2SModel
import EnvKeys
import RuleCore

/// What every page of an application shares: the base rule context (its engine, database and
/// the keys set for everyone), the looks, the formatters and the renderers. Pages are a
/// function of a ``PageRequest``: ``page(_:)`` and ``render(_:to:)`` are safe to call from
/// many threads at once.
public struct PageApplication: Sendable {
  /// The context every request starts from.
  public var base: RuleContext
  /// The looks, each a set of components by name.
  public var looks: LookRegistry
  /// The formatters by name.
  public var formatters: FormatterRegistry
  /// The renderers by platform.
  public var renderers: RendererRegistry
  /// The dependencies the application sets for all its pages (a test's clock), over those of
  /// the scope it renders in; each request's are derived from them
  /// (``dependencies(for:)``).
  public var dependencies = DependencyValues()

  /// An application rendering from `base` with the given registries.
  public init(
    base: RuleContext, looks: LookRegistry = LookRegistry(),
    formatters: FormatterRegistry = FormatterRegistry(),
    renderers: RendererRegistry = RendererRegistry()
  ) {
    self.base = base
    self.looks = looks
    self.formatters = formatters
    self.renderers = renderers
  }

  /// The same pages with a rule cache of their own (``RuleEngine/sibling(maximumAnswersPerKey:)``):
  /// for a thread that renders many pages beside others.
  public func withOwnRuleCache(maximumAnswersPerKey: Int = 50_000) -> PageApplication {
    var copy = self
    copy.base = RuleContext(
      engine: base.engine.sibling(maximumAnswersPerKey: maximumAnswersPerKey),
      values: base.values)
    return copy
  }

  /// The rule context of `request`: the base context with what the request sets.
  ///
  /// - Throws: when the entity is unknown or no object has the key.
  public func context(for request: PageRequest) throws -> RuleContext {
    var context = base
    // A base that holds the request's database already keeps it (setting one is two stores).
    if let database = request.database,
      context.values.explicitValue(for: D2SKeys.DatabaseKey.self) as? Database !== database
    {
      context.database = database
    }
    if let task = request.task { context.task = task }
    if let name = request.entityName {
      guard let entity = context.model.lookupEntity(name) else {
        throw DatabaseError(.invalidValue, "no entity named \(name)")
      }
      context.entity = entity
    }
    if let object = request.object {
      context.object = object
    } else if let key = request.key, let entity = context.entity {
      guard let database = context.database,
        let object = try database.fetchObject(entity.name, primaryKey: key)
      else {
        throw DatabaseError(
          .invalidValue,
          "no \(entity.name) with key \(key.map(\.description).joined(separator: ","))")
      }
      context.object = object
    }
    if let auxiliary = request.auxiliaryQualifier { context.auxiliaryQualifier = auxiliary }
    if let user = request.user { context.user = user }
    if let platform = request.platform,
      context.values.explicitValue(for: D2SKeys.Platform.self) != platform
    {
      context.platform = platform
    }
    if let title = request.title { context.navigationBarTitle = title }
    return context
  }

  /// What `request` is rendered with.
  public func environment(for request: PageRequest) -> RenderEnvironment {
    var environment = RenderEnvironment(
      looks: looks, formatters: formatters, renderers: renderers, width: request.width,
      list: request.list)
    environment.styles = request.styles
    environment.csv = request.csv
    return environment
  }

  /// The page `request` asks for, as a view tree (a list's rows are read as it is rendered).
  public func page(_ request: PageRequest) throws -> ViewNode {
    try DependencyValues.$current.withValue(dependencies(for: request)) {
      try environment(for: request).pageNode(try context(for: request))
    }
  }

  /// Writes the page `request` asks for to `output`, in the renderer of its platform. A rule
  /// error met while rendering (a cycle) fails the page instead of showing defaults.
  ///
  /// - Returns: what the page leaves for the next request: a list's display group, whose
  ///   `next()` and `previous()` are the windows beside the one shown.
  @discardableResult
  public func render(_ request: PageRequest, to output: any TextOutput) throws -> RenderedPage {
    try DependencyValues.$current.withValue(dependencies(for: request)) {
      try renderWithinDependencies(request, to: output)
    }
  }

  private func renderWithinDependencies(_ request: PageRequest, to output: any TextOutput) throws
    -> RenderedPage
  {
    let context = try context(for: request)
    let environment = environment(for: request)
    return try Self.failingOnReadErrors(context) { try environment.renderPage(context, to: output) }
  }

  /// `body` with the view tree of the page `request` asks for, within the page's
  /// dependencies: for a front end that writes a page its own way (a web form around its
  /// rows). `context` is the request's, when the caller has made it already. A rule error met
  /// while the page is made (a cycle) fails it, as in ``render(_:to:)``.
  public func withPage<T>(
    _ request: PageRequest, context: RuleContext? = nil, _ body: (ViewNode) throws -> T
  ) throws -> T {
    try DependencyValues.$current.withValue(dependencies(for: request)) {
      let context = try context ?? self.context(for: request)
      let environment = environment(for: request)
      return try Self.failingOnReadErrors(context) { try body(try environment.pageNode(context)) }
    }
  }

  /// `work`'s result, or the first rule error met while it ran.
  private static func failingOnReadErrors<T>(_ context: RuleContext, _ work: () throws -> T)
    throws -> T
  {
    let (value, errors) = try context.engine.collectingReadErrors { try work() }
    if let first = errors.first { throw first }
    return value
  }

  /// The page `request` asks for, rendered whole.
  public func render(_ request: PageRequest) throws -> String {
    let output = StringOutput()
    try render(request, to: output)
    return output.text
  }
}
