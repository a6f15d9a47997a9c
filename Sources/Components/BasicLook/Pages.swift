import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The title line (underlined) above the page, and the debug view below it.
struct NavigationWrapper: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let title = context.navigationBarTitle
    var lines = [title, String(repeating: "=", count: max(1, TextWidth.of(title)))]
    lines += try environment.render(\.page, in: context)
    let debug = try environment.render(\.debugComponent, in: context)
    if !debug.isEmpty { lines += [""] + debug }
    return lines
  }
}

/// `task = 'query'`: the visible entities, by display name, with the name to type where it
/// differs (`Moviestars (Actor)`).
struct EntityListPage: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let model = context.model
    return context.visibleEntityNames.compactMap { name in
      guard let entity = model.lookupEntity(name) else { return nil }
      var child = context
      child.entity = entity
      let display = child.displayNameForEntity
      return display == entity.name || display.isEmpty ? "  \(entity.name)" : "  \(display) (\(entity.name))"
    }
  }
}

/// `task = 'list'`: a table of objects with `displayPropertyKeys` as columns, headed by
/// `displayNameForProperty`, values through `formatter`; a count and the window shown.
struct QueryListPage: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let entity = context.entity else { return ["error: no entity to list"] }
    guard let database = context.database else { return ["error: no database is open"] }
    let keys = context.displayPropertyKeys
    let qualifier = [environment.list.qualifier, context.auxiliaryQualifier].compactMap { $0 }
    let specification = FetchSpecification(
      entityName: entity.name, qualifier: qualifier.isEmpty ? nil : .all(qualifier),
      sortOrderings: environment.list.sortOrderings, limit: environment.list.limit,
      offset: environment.list.offset == 0 ? nil : environment.list.offset, prefetchKeyPaths: keys)
    var objects = try database.fetch(specification)
    let total = environment.list.limit == nil && environment.list.offset == 0
      ? objects.count : try database.count(specification)

    var rowContext = context
    rowContext.auxiliaryQualifier = nil  // nested lists do not inherit it
    let columns = keys.map { key -> (header: String, right: Bool, context: RuleContext, path: PropertyPath?) in
      let column = rowContext.with(\.propertyKey, key)
      let component = column.component?.name ?? ""
      return (column.displayNameForProperty, component == "DisplayNumber", column, try? PropertyPath(key, from: entity, in: database.model))
    }
    // Rows become text one by one and their objects are let go as they are rendered, so a
    // long list is not held as objects and as text at the same time.
    let shown = objects.count
    var remaining = Array(objects.reversed())
    objects.removeAll()
    var cells: [[String]] = []
    cells.reserveCapacity(shown)
    while let object = remaining.popLast() {
      try Interruption.check()
      var row: [String] = []
      row.reserveCapacity(columns.count)
      for column in columns {
        var cell = column.context.with(\.object, object)
        // The page knows the value: read it through the resolved path, not a rule per cell.
        if let path = column.path { cell.propertyValue = AnySendableValue(path.anyValue(in: object)) }
        let lines = try environment.render(\.component, in: cell)
        row.append(lines.first ?? "")
      }
      cells.append(row)
    }
    var lines = Table(headers: columns.map(\.header), rightAligned: columns.map(\.right), rows: cells)
      .lines(width: environment.width)
    let noun = context.displayNameForEntity.isEmpty ? entity.name : context.displayNameForEntity
    if shown == 0 {
      lines.append(total == 0 ? "no \(noun) found" : "0 of \(total) \(noun) (offset \(environment.list.offset), limit \(environment.list.limit ?? 0))")
    } else if shown == total {
      lines.append("\(total) \(noun)")
    } else {
      let first = environment.list.offset + 1
      lines.append("\(first)–\(first + shown - 1) of \(total) \(noun)")
    }
    return lines
  }
}

/// `task = 'inspect'` (and `edit`): one row per property, by `rowComponent`.
struct InspectPage: D2SComponent {
  let editing: Bool
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let object = context.object else { return ["error: no object to \(editing ? "edit" : "inspect")"] }
    var lines: [String] = []
    var environment = environment
    let rows = context.displayPropertyKeys.map { context.with(\.object, object).with(\.propertyKey, $0) }
    environment.labelWidth = rows.map { TextWidth.of($0.displayNameForProperty) }.max() ?? 0
    for row in rows {
      if row.hideEmptyProperty, PropertyRows.isEmpty(row.propertyValue) { continue }
      lines += try environment.render(\.rowComponent, in: row)
    }
    if editing, object.hasChanges { lines.append("changed: " + object.changedKeys.joined(separator: ", ")) }
    return lines
  }
}

/// A task with no page.
struct ErrorPage: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    ["error: no page for task '\(context.task)'"]
  }
}
