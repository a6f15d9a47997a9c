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
  @Environment(\.visibleEntityNames) var names
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
      Text(entity?.sourceLabel.map { line + "  " + $0 } ?? line)
    }
  }
}

/// `task = 'list'`: a table of the display group's objects with `displayPropertyKeys` as
/// columns, headed by `displayNameForProperty`, values through `formatter`; then the window
/// and the total.
struct QueryListPage: PrimitiveView {
  func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    guard context.entity != nil else { return .message("error: no entity to list") }
    guard context.database != nil else { return .message("error: no database is open") }
    let group = try DisplayGroup(context: context, request: scope.environment.list)
    let columns = try ListColumns(
      context: context, entity: group.entity, model: group.database.model,
      environment: scope.environment)
    // Rows are made one by one as the renderer reads them, and let go once written, so a
    // long list is never held whole.
    let rows = RowSource { emit in
      try group.forEachRow(
        attributes: columns.rowAttributes, paths: columns.joinedPaths,
        objects: columns.needsObjects, prefetch: columns.prefetch
      ) {
        try emit(try columns.row($0, $1))
      }
    }
    let noun =
      context.displayNameForEntity.isEmpty ? group.entity.name : context.displayNameForEntity
    let summary = ListSummary(noun: noun, offset: group.offset, limit: group.limit) {
      try group.total(shown: $0)
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
    let rows = context.displayPropertyKeys.map {
      context.with(\.object, object).with(\.propertyKey, $0)
    }
    scope.environment.labelWidth = rows.map { TextWidth.of($0.displayNameForProperty) }.max() ?? 0
    var nodes: [ViewNode] = []
    for row in rows {
      if row.hideEmptyProperty, PropertyRows.isEmpty(row.propertyValue) { continue }
      var rowScope = scope
      rowScope.context = row
      nodes.append(try ComponentView(\.rowComponent).resolve(in: rowScope))
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
