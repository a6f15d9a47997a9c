import D2SModel
import RuleCore

/// Text as it is.
public struct Text: PrimitiveView {
  let string: String
  /// Shows `string`.
  public init(_ string: String) { self.string = string }
  public func node(in scope: ViewScope) throws -> ViewNode { .text(string) }
}

/// A message line: `logged in as Mike Hillyer`, `no user entity: nobody can log in`.
public struct Message: PrimitiveView {
  let string: String
  /// Shows `string` as a message.
  public init(_ string: String) { self.string = string }
  public func node(in scope: ViewScope) throws -> ViewNode { .message(string) }
}

/// Something the page offers, shown as `(follow filmActors)` on a terminal, as a link on the
/// web and listed under `"actions"` in JSON.
public struct Action: PrimitiveView {
  let action: PageAction
  /// Offers `action` (`.follow(relationship: "filmActors")`).
  public init(_ action: PageAction) { self.action = action }
  public func node(in scope: ViewScope) throws -> ViewNode { .action(action) }
}

/// A view that leads somewhere: `content` as it is on a terminal, a link on the web, and the
/// action among the page's in JSON.
public struct Link<Content: D2SView>: PrimitiveView {
  let content: Content
  let action: PageAction
  /// `content`, leading where `action` does.
  public init(_ action: PageAction, @D2SViewBuilder content: () -> Content) {
    self.action = action
    self.content = content()
  }
  public func node(in scope: ViewScope) throws -> ViewNode {
    .link(try content.resolve(in: scope), action)
  }
}

/// Nothing.
public struct EmptyView: PrimitiveView {
  /// Shows nothing.
  public init() {}
  public func node(in scope: ViewScope) throws -> ViewNode { .empty }
}

/// Views one below the other (what a `body` of several views builds).
public struct Group: PrimitiveView {
  let children: [any D2SView]
  /// The views `children`, stacked.
  public init(_ children: [any D2SView]) { self.children = children }
  /// The views the builder lists, stacked.
  public init(@D2SViewBuilder _ content: () -> Group) { self = content() }

  public func node(in scope: ViewScope) throws -> ViewNode {
    var nodes: [ViewNode] = []
    for child in children {
      switch try child.resolve(in: scope) {
      case .empty: continue
      case .stack(let inner): nodes += inner
      case let node: nodes.append(node)
      }
    }
    return nodes.count == 1 ? nodes[0] : (nodes.isEmpty ? .empty : .stack(nodes))
  }
}

/// Views one below the other.
public typealias VStack = Group

/// Views side by side on one line: `HStack { FormattedValue(); Action("follow films") }`.
public struct HStack: PrimitiveView {
  let separator: String
  let content: Group
  /// The views the builder lists, `spacing` spaces apart.
  public init(spacing: Int = 2, @D2SViewBuilder _ content: () -> Group) {
    self.init(separator: String(repeating: " ", count: spacing), content)
  }
  /// The views the builder lists, with `separator` between them (`" · "`).
  public init(separator: String, @D2SViewBuilder _ content: () -> Group) {
    self.separator = separator
    self.content = content()
  }

  public func node(in scope: ViewScope) throws -> ViewNode {
    switch try content.node(in: scope) {
    case .empty: .empty
    case .stack(let nodes): .line(nodes, separator: separator)
    case let node: node
    }
  }
}

/// A view per element: `ForEach(keys) { key in ComponentView(\.rowComponent).environment(\.propertyKey, key) }`.
public struct ForEach<Element: Sendable>: PrimitiveView {
  let elements: [Element]
  let content: @Sendable (Element) -> any D2SView

  /// The view `content` makes for each of `elements`, stacked.
  public init<V: D2SView>(
    _ elements: [Element], @D2SViewBuilder content: @escaping @Sendable (Element) -> V
  ) {
    self.elements = elements
    self.content = { content($0) }
  }

  public func node(in scope: ViewScope) throws -> ViewNode {
    // The closure may read the enclosing view's @Environment properties: in this scope.
    try Group(ViewScope.$current.withValue(scope) { elements.map(content) }).node(in: scope)
  }
}
