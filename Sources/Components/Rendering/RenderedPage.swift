/// What a rendered page leaves behind for the next request: a list page's display group, whose
/// ``DisplayGroup/next()`` and ``DisplayGroup/previous()`` are the windows beside the one
/// shown.
public struct RenderedPage: Sendable {
  /// The display group of the page's list, if it showed one.
  public var displayGroup: DisplayGroup?

  /// A rendered page with the display group of its list, if any.
  public init(displayGroup: DisplayGroup? = nil) {
    self.displayGroup = displayGroup
  }
}

extension ViewNode {
  /// The display group of the first list in the tree (a table whose summary is a list's).
  var listDisplayGroup: DisplayGroup? {
    switch self {
    case .table(let table):
      if case .list(let summary) = table.summary { return summary.displayGroup }
      return nil
    case .page(let page): return page.content.listDisplayGroup
    case .section(let section): return section.content.listDisplayGroup
    case .stack(let children), .line(let children, _):
      for child in children {
        if let group = child.listDisplayGroup { return group }
      }
      return nil
    case .tagged(_, let inner), .styled(_, let inner), .link(let inner, _):
      return inner.listDisplayGroup
    case .empty, .text, .value, .row, .action, .editField, .message: return nil
    }
  }
}
