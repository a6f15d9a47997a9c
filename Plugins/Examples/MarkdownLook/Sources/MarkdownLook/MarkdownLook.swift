import Components
import D2SModel
import EnvKeys
import Plugins
import Qualifiers
import RuleCore

/// Markdown pages: a `#` title, list and inspect pages as tables. Selected with
/// `look = 'MarkdownLook'`; BasicLook provides every other component.
public struct MarkdownLookPlugin: D2SPlugin {
  public init() {}
  public let name = "MarkdownLook"
  public var components: [PluginComponent] {
    [
      PluginComponent("Navigation", look: "MarkdownLook", MarkdownWrapper()),
      PluginComponent("QueryList", look: "MarkdownLook", MarkdownList()),
      PluginComponent("Inspect", look: "MarkdownLook", MarkdownInspect()),
    ]
  }
}

func row(_ cells: [String]) -> String {
  "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
}

struct MarkdownWrapper: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    ["# \(context.navigationBarTitle)", ""] + (try environment.render(\.page, in: context))
  }
}

struct MarkdownList: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let entity = context.entity, let database = context.database else { return ["*nothing to list*"] }
    let keys = context.displayPropertyKeys
    let qualifiers = [environment.list.qualifier, context.auxiliaryQualifier].compactMap { $0 }
    let objects = try database.fetch(
      FetchSpecification(
        entityName: entity.name, qualifier: qualifiers.isEmpty ? nil : .all(qualifiers), sortOrderings: environment.list.sortOrderings,
        limit: environment.list.limit, offset: environment.list.offset == 0 ? nil : environment.list.offset, prefetchKeyPaths: keys))
    let columns = keys.map { context.with(\.propertyKey, $0) }
    var lines = [row(columns.map(\.displayNameForProperty)), row(columns.map { _ in "---" })]
    for object in objects {
      lines.append(row(try columns.map { column in (try environment.render(\.component, in: column.with(\.object, object))).first ?? "" }))
    }
    return lines
  }
}

struct MarkdownInspect: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let object = context.object else { return ["*nothing to inspect*"] }
    var lines = [row(["Property", "Value"]), row(["---", "---"])]
    for key in context.displayPropertyKeys {
      let property = context.with(\.object, object).with(\.propertyKey, key)
      let value = (try environment.render(\.component, in: property)).joined(separator: " ")
      lines.append(row([property.displayNameForProperty, value]))
    }
    return lines
  }
}
