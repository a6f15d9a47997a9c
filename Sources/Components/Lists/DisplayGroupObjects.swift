import D2SModel
import RuleCore

/// The objects of the list page's display group, for a look's own list page:
/// `DisplayGroupObjects { objects in ForEach(objects) { FormattedValue($0) } }`. The fetch is
/// the one BasicLook's list page makes (qualifier, orderings, window, the page's to-many filter).
public struct DisplayGroupObjects<Content: D2SView>: PrimitiveView {
  let content: @Sendable ([DatabaseObject]) -> Content

  /// The view `content` makes from the objects.
  public init(@D2SViewBuilder content: @escaping @Sendable ([DatabaseObject]) -> Content) {
    self.content = content
  }

  public func node(in scope: ViewScope) throws -> ViewNode {
    let group = try DisplayGroup(context: scope.context, request: scope.environment.list)
    let objects = try group.objects()
    // The closure may read the enclosing view's @Environment properties: in this scope.
    return try ViewScope.$current.withValue(scope) { content(objects) }.resolve(in: scope)
  }
}
