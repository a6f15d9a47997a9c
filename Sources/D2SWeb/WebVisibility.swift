import Components
import D2SModel

/// On the web, hiding is access control: a page's rows, columns and commands that lead
/// through a relationship to an entity the rules hide are taken out of its view tree before
/// it is rendered (HTML and JSON alike), so no title, count or link of a hidden entity shows.
struct WebVisibility {
  let model: Model
  let visible: Set<String>
  /// The page's entity, from which its property keys start.
  let entity: Entity?

  /// Whether `key` (`address.city`) goes through a relationship to a hidden entity.
  func isHidden(_ key: String) -> Bool {
    guard var current = entity else { return false }
    for component in key.split(separator: ".") {
      guard let relationship = current.relationship(named: String(component)) else {
        return false
      }
      guard visible.contains(relationship.destinationName),
        let destination = model.entity(named: relationship.destinationName)
      else { return true }
      current = destination
    }
    return false
  }

  /// Whether the command `follow KEY` leads to a hidden entity.
  func isHiddenAction(_ command: String) -> Bool {
    guard command.hasPrefix("follow ") else { return false }
    return isHidden(String(command.dropFirst("follow ".count)))
  }

  /// `node` without what leads to hidden entities.
  func filter(_ node: ViewNode) -> ViewNode {
    switch node {
    case .page(var page):
      page.content = filter(page.content)
      page.footer = filter(page.footer)
      page.actions = page.actions.filter { !isHiddenAction($0) }
      return .page(page)
    case .stack(let children):
      return .stack(children.map(filter))
    case .row(let row):
      return isHidden(row.key) ? .empty : node
    case .action(let command):
      return isHiddenAction(command) ? .empty : node
    case .line(let items, let separator):
      return .line(items.map(filter), separator: separator)
    case .tagged(let tag, let inner):
      return .tagged(tag, filter(inner))
    case .styled(let style, let inner):
      return .styled(style, filter(inner))
    case .table(let table):
      let kept = table.columns.indices.filter { !isHidden(table.columns[$0].key) }
      guard kept.count < table.columns.count else { return node }
      let source = table.rows
      let rows = RowSource { emit in
        try source.stream { row in
          try emit(
            TableRow(
              key: row.key,
              cells: kept.map { $0 < row.cells.count ? row.cells[$0] : ShownValue(.null, text: "") }
            ))
        }
      }
      return .table(
        TableNode(columns: kept.map { table.columns[$0] }, rows: rows, summary: table.summary))
    default:
      return node
    }
  }
}
