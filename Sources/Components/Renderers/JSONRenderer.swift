/// JSON Lines: a page is one object on one line, with `"page"`, `"task"`, `"entity"` and
/// `"title"`; a list adds `"columns"`, `"rows"` (streamed), `"window"` and `"total"`; rows of
/// an inspect or edit page are `"properties"`; what a page offers are `"actions"`, each an
/// object naming the action and its arguments (`{"action":"follow","relationship":"actors"}`).
public struct JSONRenderer: PageRenderer {
  /// A JSON renderer.
  public init() {}

  /// Writes `node` as the page's JSON object.
  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    var parts = Parts()
    let page: PageNode
    if case .page(let found) = node {
      page = found
    } else {
      page = PageNode(
        name: "", task: "", entity: nil, title: "", showsTitle: false, content: node,
        footer: .empty, actions: [])
    }
    output.write("{\"page\":\(JSONText.string(page.name)),\"task\":\(JSONText.string(page.task))")
    output.write(
      ",\"entity\":\(page.entity.map(JSONText.string) ?? "null"),\"title\":\(JSONText.string(page.title))"
    )
    parts.actions = page.actions
    try collect(page.content, into: &parts, output: output)
    collectLoose(page.footer, into: &parts)
    if !parts.properties.isEmpty {
      output.write(",\"properties\":" + JSONText.array(parts.properties))
    }
    if !parts.sections.isEmpty {
      output.write(",\"sections\":" + JSONText.array(parts.sections))
    }
    if !parts.lines.isEmpty {
      output.write(",\"lines\":" + JSONText.array(parts.lines.map(JSONText.string)))
    }
    output.write(",\"actions\":" + JSONText.array(parts.actions.map(\.json)) + "}\n")
  }

  struct Parts {
    var properties: [String] = []
    /// Each section or tab: its title, its kind and its properties' keys.
    var sections: [String] = []
    var lines: [String] = []
    var actions: [PageAction] = []
    var hasTable = false
  }

  /// Walks the content: the first table streams into the output; rows become properties.
  private func collect(_ node: ViewNode, into parts: inout Parts, output: any TextOutput) throws {
    switch node {
    case .stack(let children):
      for child in children { try collect(child, into: &parts, output: output) }
    case .styled(_, let inner) where inner.isBlock:
      try collect(inner, into: &parts, output: output)
    case .table(let table) where !parts.hasTable:
      parts.hasTable = true
      try writeTable(table, to: output, parts: &parts)
    case .page(let inner):
      parts.actions += inner.actions
      try collect(inner.content, into: &parts, output: output)
    default:
      collectLoose(node, into: &parts)
    }
  }

  private func collectLoose(_ node: ViewNode, into parts: inout Parts) {
    switch node {
    case .empty: break
    case .styled(_, let inner): collectLoose(inner, into: &parts)
    case .stack(let children): for child in children { collectLoose(child, into: &parts) }
    case .row(let row):
      var fields = [("key", JSONText.string(row.key)), ("label", JSONText.string(row.label))]
      fields += valueFields(row.content, actions: &parts.actions)
      parts.properties.append(JSONText.object(fields))
    case .action(let action): parts.actions.append(action)
    case .link(let inner, let action):
      parts.actions.append(action)
      collectLoose(inner, into: &parts)
    case .line(let items, _):
      for case .action(let action) in items { parts.actions.append(action) }
      parts.lines += TextLines.plain.lines(node)
    case .tagged(_, let inner): collectLoose(inner, into: &parts)
    case .section(let section):
      parts.sections.append(
        JSONText.object([
          ("title", JSONText.string(section.title)),
          ("kind", JSONText.string(section.isTab ? "tab" : "section")),
          ("keys", JSONText.array(section.content.propertyRows.map { JSONText.string($0.key) })),
        ]))
      collectLoose(section.content, into: &parts)
    default: parts.lines += TextLines.plain.lines(node)
    }
  }

  /// The fields of a row's content: its value and text, its edit state, its actions.
  private func valueFields(_ node: ViewNode, actions: inout [PageAction]) -> [(String, String)] {
    switch node {
    case .value(let shown, _):
      return [("value", JSONText.value(shown.value)), ("text", JSONText.string(shown.text))]
        + (JSONText.lowerBounds(of: shown.value).map { [("lowerBounds", $0)] } ?? [])
    case .editField(let field):
      if let choose = field.choose { actions.append(choose) }
      return [
        ("value", JSONText.value(field.value.value)), ("text", JSONText.string(field.value.text)),
        ("changed", field.changed ? "true" : "false"),
        ("invalid", field.invalid.map(JSONText.string) ?? "null"),
      ]
    case .tagged(_, let inner): return valueFields(inner, actions: &actions)
    case .link(let inner, let action):
      actions.append(action)
      return valueFields(inner, actions: &actions)
    case .styled(let style, let inner):
      let fields = valueFields(inner, actions: &actions)
      guard !fields.contains(where: { $0.0 == "style" }) else { return fields }
      return fields + [("style", JSONText.style(style))]
    case .line(let items, let separator):
      var shown: [ViewNode] = []
      for item in items {
        if case .action(let action) = item { actions.append(action) } else { shown.append(item) }
      }
      // One part, or an edit field among several: its own fields (an edit field keeps its
      // state); else the first value and the text of every part.
      if shown.count == 1 { return valueFields(shown[0], actions: &actions) }
      if let field = shown.first(where: \.holdsEditField) {
        return valueFields(field, actions: &actions)
      }
      return composedFields(.line(shown, separator: separator))
    default:
      return composedFields(node)
    }
  }

  /// The first value `node` shows, if any, and the text of all its parts.
  private func composedFields(_ node: ViewNode) -> [(String, String)] {
    let text = ("text", JSONText.string(TextLines.plain.lines(node).joined(separator: "\n")))
    guard let value = node.shownValue else { return [text] }
    return [("value", JSONText.value(value.value)), text]
  }

  private func writeTable(_ table: TableNode, to output: any TextOutput, parts: inout Parts) throws
  {
    let columns = table.columns.map {
      JSONText.object([
        ("key", JSONText.string($0.key)), ("label", JSONText.string($0.label)),
        ("component", JSONText.string($0.component)),
      ])
    }
    output.write(",\"columns\":" + JSONText.array(columns) + ",\"rows\":[")
    var first = true
    try table.rows.stream { row in
      output.write(
        (first ? "" : ",") + "{\"key\":" + JSONText.array(row.key.map(JSONText.value))
          + ",\"cells\":"
          + JSONText.array(row.cells.map(JSONText.shown)) + "}")
      first = false
    }
    output.write("]")
    switch table.summary {
    case .none: break
    case .hint(let text): parts.lines.append(text)
    case .list(let list):
      let shown = table.rows.count
      let total = try list.total(shown)
      output.write(
        ",\"window\":{\"offset\":\(list.offset),\"limit\":\(list.limit.map(String.init) ?? "null")}"
          + ",\"total\":{\"value\":\(total.value),\"kind\":\(JSONText.string(total.kind.rawValue))}"
      )
      if list.hasFacets {
        output.write(",\"facets\":" + JSONText.array(try list.facets().map(Self.facet)))
      }
      // The last window offers no next one (the page's actions were made before its rows
      // were read).
      if list.displayGroup?.hasMore == false { parts.actions.removeAll { $0 == .next } }
    }
  }

  /// A facet: its key, label, values (null when not counted in time) and whether it has
  /// more.
  public static func facet(_ facet: Facet) -> String {
    let values = facet.values.map { values in
      JSONText.array(
        values.map {
          JSONText.object([
            ("value", JSONText.value($0.value)), ("literal", JSONText.string($0.literal)),
            ("text", JSONText.string($0.text)), ("count", "\($0.count)"),
          ])
        })
    }
    return JSONText.object([
      ("key", JSONText.string(facet.key)), ("label", JSONText.string(facet.label)),
      ("values", values ?? "null"), ("more", facet.more ? "true" : "false"),
    ])
  }
}

extension ViewNode {
  /// Whether the node is an edit field (under a tag or a style).
  var holdsEditField: Bool {
    switch self {
    case .editField: true
    case .tagged(_, let inner), .styled(_, let inner): inner.holdsEditField
    default: false
    }
  }
}
