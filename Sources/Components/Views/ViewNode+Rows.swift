extension ViewNode {
  /// The property rows of the tree, in order (those of a page, its stacks and lines).
  public var propertyRows: [PropertyRowNode] {
    switch self {
    case .row(let row): [row]
    case .page(let page): page.content.propertyRows
    case .section(let section): section.content.propertyRows
    case .stack(let children), .line(let children, _): children.flatMap(\.propertyRows)
    case .tagged(_, let inner), .styled(_, let inner): inner.propertyRows
    default: []
    }
  }

  /// The edit field the node shows, if any (under a tag or a style, or among a line's or a
  /// stack's parts).
  public var editField: EditFieldNode? {
    switch self {
    case .editField(let field): field
    case .tagged(_, let inner), .styled(_, let inner): inner.editField
    case .line(let items, _), .stack(let items): items.lazy.compactMap(\.editField).first
    default: nil
    }
  }

  /// The keys of the rows whose content is an edit field: what an edit page lets a person
  /// change, as its components decided.
  public var editFieldKeys: Set<String> {
    Set(propertyRows.filter { $0.content.editField != nil }.map(\.key))
  }

  /// The sections and tabs of the tree, in order.
  public var sections: [SectionNode] {
    switch self {
    case .section(let section): [section]
    case .page(let page): page.content.sections
    case .stack(let children): children.flatMap(\.sections)
    case .styled(_, let inner): inner.sections
    default: []
    }
  }

  /// The label of each row, by its key.
  public var rowLabels: [String: String] {
    Dictionary(propertyRows.map { ($0.key, $0.label) }, uniquingKeysWith: { first, _ in first })
  }
}
