import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The title line (underlined) above the page, and the debug view below it.
struct NavigationWrapper: PrimitiveView {
  func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    return .page(
      PageNode(
        name: context.page?.name ?? "", task: context.task, entity: context.entity?.name,
        title: context.navigationBarTitle,
        showsTitle: true, content: try ComponentView(\.page).resolve(in: scope),
        footer: try ComponentView(\.debugComponent).resolve(in: scope), actions: []))
  }
}

/// `task = 'query'`: the visible entities, by display name, with the name to type where it
/// differs (`Moviestars (Actor)`).
struct EntityListPage: D2SView {
  @Environment(\.reachableVisibleEntityNames) var names
  @Environment(\.model) var model

  var body: some D2SView {
    ForEach(names.compactMap { model.lookupEntity($0) }) { entity in
      EntityLine().environment(\.entity, entity)
    }
  }

  struct EntityLine: D2SView {
    @Environment(\.entity) var entity
    @Environment(\.displayNameForEntity) var display
    var body: some D2SView {
      let name = entity?.name ?? ""
      let line = display == name || display.isEmpty ? "  \(name)" : "  \(display) (\(name))"
      // Where the name does not say which table: `BillingInvoices  billing.invoices`.
      Link(.list(entity: name)) { Text(entity?.sourceLabel.map { line + "  " + $0 } ?? line) }
    }
  }
}

/// `task = 'list'`: a table of the display group's objects with `displayPropertyKeys` as
/// columns, headed by `displayNameForProperty`, values through `formatter`; then the window
/// and the total.
struct QueryListPage: PrimitiveView {
  /// How many rows a list with to-one titles holds back to fetch their titles together.
  static let titleChunk = 500
  /// The most rows a to-one's destination may have for a whole list to load all its titles
  /// before its rows.
  static let titlesLoadedWhole = 1_000

  func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    guard context.entity != nil else { return .message("error: no entity to list") }
    guard context.database != nil else { return .message("error: no database is open") }
    let group = try DisplayGroup(context: context, request: scope.environment.list)
    let columns = try ListColumns(
      context: context, entity: group.entity, database: group.database,
      environment: scope.environment)
    // Rows are made as the renderer reads them, and let go once written, so a long list is
    // never held whole; with to-one titles, a chunk at a time, whose titles are fetched
    // together.
    let rows = RowSource { emit in
      var pending: [([DatabaseValue], DatabaseObject?)] = []
      func emitRow(_ values: [DatabaseValue], _ object: DatabaseObject?) throws {
        let row = try columns.row(values, object)
        try emit(row)
        columns.recycle(row)
      }
      func flush() throws {
        try columns.loadTitles(for: pending.map(\.0))
        for (values, object) in pending { try emitRow(values, object) }
        pending.removeAll(keepingCapacity: true)
      }
      // A whole list (script mode) loads small destinations' titles first, so that no row
      // queries and its rows can be read ahead.
      if columns.showsTitles, group.limit == nil {
        try columns.loadAllTitles(upTo: Self.titlesLoadedWhole)
      }
      let chunked = !columns.titlesAreComplete
      try group.forEachRow(
        attributes: columns.rowAttributes, paths: columns.joinedPaths,
        objects: columns.needsObjects, prefetch: columns.prefetch, queries: chunked
      ) { values, object in
        guard chunked else { return try emitRow(values, object) }
        pending.append((values, object))
        if pending.count == Self.titleChunk { try flush() }
      }
      try flush()
    }
    let name = context.displayNameForEntity
    let noun = name.isEmpty ? group.entity.name : name
    let hidden = columns.hiddenKey
    var summary = ListSummary(
      noun: noun, offset: group.offset, limit: group.limit,
      hiddenKey: hidden.map { (group.entity.name, $0) }, displayGroup: group
    ) {
      try group.total(shown: $0)
    }
    let facets = FacetPlan(
      keys: context.facetPropertyKeys + scope.environment.list.facets, context: context)
    if !facets.isEmpty {
      let budget = Duration.milliseconds(max(0, context.facetTimeBudget))
      let environment = scope.environment
      summary.hasFacets = true
      summary.facets = {
        try facets.facets(
          of: group.entity, qualifier: group.specification.qualifier,
          fullText: group.specification.fullText, in: group.database,
          budget: budget, environment: environment)
      }
    }
    return .table(
      TableNode(columns: columns.columns.map(\.description), rows: rows, summary: .list(summary)))
  }
}

/// `task = 'inspect'` (and `edit`): one row per property, by `rowComponent`.
struct InspectPage: PrimitiveView {
  let editing: Bool
  func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    guard let object = context.object else {
      return .message("error: no object to \(editing ? "edit" : "inspect")")
    }
    var scope = scope
    // Sections and tabs (`(Basics)`, `[Pricing]` in displayPropertyKeys) group the rows.
    let groups = context.displayPropertyGroups.map { group in
      (group, group.keys.map { context.with(\.object, object).with(\.propertyKey, $0) })
    }
    scope.environment.labelWidth =
      groups.flatMap(\.1).map { TextWidth.of($0.displayNameForProperty) }.max() ?? 0
    // The to-manys whose rows show their count, counted together: one statement, not one each.
    let counted = groups.flatMap(\.1).filter {
      PropertyRows.isToMany($0.propertyKey, of: object) && $0.rowComponent == "NamedToManyLink"
    }
    if counted.count > 1, let database = context.database {
      scope.environment.toManyCounts = ToManyCounts(
        of: object, try database.countToManys(counted.map(\.propertyKey), of: object))
    }
    var nodes: [ViewNode] = []
    for (group, rows) in groups {
      var groupNodes: [ViewNode] = []
      for row in rows {
        // A password's row is never hidden: whether one is set is not told.
        if row.hideEmptyProperty, !PropertyRows.isToMany(row.propertyKey, of: object),
          object.entity.attribute(named: row.propertyKey)?.isPassword != true,
          PropertyRows.isEmpty(row.propertyValue)
        {
          continue
        }
        var rowScope = scope
        rowScope.context = row
        groupNodes.append(try ComponentView(\.rowComponent).resolve(in: rowScope))
      }
      if let title = group.title {
        nodes.append(
          .section(SectionNode(title: title, isTab: group.isTab, content: .stack(groupNodes))))
      } else {
        nodes += groupNodes
      }
    }
    if editing, object.hasChanges {
      nodes.append(.message("changed: " + object.changedKeys.joined(separator: ", ")))
    }
    return .stack(nodes)
  }
}

/// A task with no page.
struct ErrorPage: D2SView {
  @Environment(\.task) var task
  var body: some D2SView { Message("error: no page for task '\(task)'") }
}
