import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// What rendering needs besides the rule context: the looks and formatters, the width, and
/// what a list page should fetch.
public struct RenderEnvironment: Sendable {
  /// The looks, each a set of components by name.
  public var looks: LookRegistry
  /// The formatters by name.
  public var formatters: FormatterRegistry
  /// The renderers by platform.
  public var renderers: RendererRegistry
  /// Terminal columns available; nil for no limit (scripts, as `sqlite3` and `psql`).
  public var width: Int?
  /// The list page's request: the user's qualifier, orderings and window.
  public var list: ListRequest
  /// The label column width rows align to (set by pages that show rows).
  public var labelWidth = 0
  /// Whether a terminal shows text styles (ANSI codes): one is attached, `NO_COLOR` unset.
  public var styles = false
  /// How the `csv` platform writes values.
  public var csv = CSVOptions()
  /// The counts of an object's to-manys, made together by the page that shows them (one
  /// statement), for its rows to show.
  public var toManyCounts: ToManyCounts?

  /// An environment.
  public init(
    looks: LookRegistry = LookRegistry(), formatters: FormatterRegistry = FormatterRegistry(),
    renderers: RendererRegistry = RendererRegistry(), width: Int? = 100,
    list: ListRequest = ListRequest()
  ) {
    self.renderers = renderers
    self.looks = looks
    self.formatters = formatters
    self.width = width
    self.list = list
  }

  /// The whole page for `context` as a view tree: its page wrapper around its page, with the
  /// commands the page offers.
  public func pageNode(_ context: RuleContext) throws -> ViewNode {
    let scope = ViewScope(context: context, environment: self)
    var page: PageNode
    if context.pageWrapper != nil,
      case .page(let wrapped) = try ComponentView(\.pageWrapper).resolve(in: scope)
    {
      page = wrapped
    } else {
      page = PageNode(
        name: context.page?.name ?? "", task: context.task, entity: context.entity?.name,
        title: context.navigationBarTitle,
        showsTitle: false, content: try ComponentView(\.page).resolve(in: scope), footer: .empty,
        actions: [])
    }
    page.actions += pageActions(context)
    return .page(page)
  }

  /// The whole page for `context`, in the renderer the context's `platform` selects.
  public func renderPage(_ context: RuleContext) throws -> String {
    let output = StringOutput()
    try renderPage(context, to: output)
    return output.text
  }

  /// Writes the page for `context` to `output` as it is rendered (a list's rows stream).
  ///
  /// - Throws: ``UnknownPlatformError`` when no renderer has the context's `platform`.
  @discardableResult
  public func renderPage(_ context: RuleContext, to output: any TextOutput) throws
    -> RenderedPage
  {
    let renderer = try renderers.renderer(
      for: context.platform,
      options: RenderOptions(width: width, styles: styles, context: context, csv: csv))
    let node = try pageNode(context)
    try renderer.render(node, to: output)
    let group = node.listDisplayGroup
    group?.stopCounting()
    return RenderedPage(displayGroup: group)
  }

  /// The terminal lines of the component the key at `keyPath` names, or none when it names
  /// none.
  public func render(
    _ keyPath: KeyPath<RuleContext, ComponentName?> & Sendable, in context: RuleContext
  ) throws -> [String] {
    let node = try ComponentView(keyPath).resolve(
      in: ViewScope(context: context, environment: self))
    return TerminalRenderer(width: width, styles: styles).lines(node)
  }

  /// What a page offers besides what its views show: a paged list's next and previous
  /// windows.
  private func pageActions(_ context: RuleContext) -> [PageAction] {
    switch context.task {
    case "list":
      guard let limit = list.limit, limit > 0 else { return [] }
      return (list.offset > 0 || list.keyset != nil ? [.previous] : []) + [.next]
    default: return []
    }
  }
}

/// What a list page fetches beyond the entity: a qualifier, orderings and a window.
public struct ListRequest: Sendable {
  /// The user's qualifier.
  public var qualifier: Qualifier?
  /// The orderings.
  public var sortOrderings: [SortOrdering]
  /// The window's size.
  public var limit: Int?
  /// The window's first row (with a ``keyset``, only the number its rows are shown from).
  public var offset: Int
  /// Where the window starts when `next` or `prev` reached it: by the position of a row
  /// (its orderings' values and primary key), not by counting rows from the first.
  public var keyset: KeysetBound?
  /// Key paths shown before the rules' `displayPropertyKeys` (the REPL's `with id`).
  public var columns: [String]
  /// Properties whose facets are asked for, beside the rules' `facetPropertyKeys` (a URL's
  /// `facet=`).
  public var facets: [String] = []
  /// A search through the entity's full-text index, beside the qualifier (``SearchText``).
  public var fullText: FullTextSearch?
  /// A request.
  public init(
    qualifier: Qualifier? = nil, sortOrderings: [SortOrdering] = [], limit: Int? = nil,
    offset: Int = 0, keyset: KeysetBound? = nil, columns: [String] = []
  ) {
    self.keyset = keyset
    self.columns = columns
    self.qualifier = qualifier
    self.sortOrderings = sortOrderings
    self.limit = limit
    self.offset = offset
  }
}

/// The numbers of objects of one object's to-many relationships, by relationship name.
public struct ToManyCounts: Sendable {
  /// The object counted.
  public let object: ObjectIdentifier
  /// The counts by relationship name.
  public let counts: [String: Int]

  /// Counts of `object`'s to-manys.
  public init(of object: DatabaseObject, _ counts: [String: Int]) {
    self.object = ObjectIdentifier(object)
    self.counts = counts
  }

  /// The count of `object`'s `relationship`, when these are its counts and hold it.
  public func count(_ relationship: String, of object: DatabaseObject) -> Int? {
    self.object == ObjectIdentifier(object) ? counts[relationship] : nil
  }
}
